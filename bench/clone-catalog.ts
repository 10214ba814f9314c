/**
 * Clone engine benchmark (Temporal dev server, in-memory store, local lakehouse in os.tmpdir()):
 * - shallow clone of a 1,000-table catalog through the workflows: tables/s, and the ratio to calling
 *   `cloneTable` on the platform port in a plain loop at the same parallelism (goal >= 0.6);
 * - deep clone bytes/s through the workflows as a ratio to `cp -r` of the same table folders (goal >= 0.9);
 * - the largest workflow history (any run of the job or a schema workflow) cloning a 10,000-table catalog,
 *   as many schemas and as one schema (goal <= 10,240 events), over a platform whose clone is a no-op.
 * Sizes: LAKEWARD_BENCH_TABLES (1000), LAKEWARD_BENCH_DEEP_ROWS (rows per deep table, 2,000,000),
 * LAKEWARD_BENCH_HISTORY_TABLES (10000); LAKEWARD_BENCH_DATABASE_URL puts the store on Postgres.
 *
 *   npx tsx bench/clone-catalog.ts
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { transferTable } from '../activities/clone/table-transfer';
import { openWorkspace } from '../platform';
import { applyCloneDefaults, type CloneRequestInput } from '../schemas/clone';
import { jobHistoryStats } from '../test/clone/history-size';
import { syntheticWorkspace } from '../test/clone/fixtures/synthetic-workspace';
import { createBenchEnv, pool, timed, type BenchEnv } from './clone-bench-env';

const WORKERS = 4;
const PARALLEL_TABLES = 4;

export interface CloneBenchResult {
  tables: number;
  engineTablesPerSecond: number;
  /** The same per-table port calls as the engine (clone + metadata), in a plain loop. */
  plainTablesPerSecond: number;
  /** Only `cloneTable` in a plain loop (no metadata copy). */
  cloneOnlyTablesPerSecond: number;
  /** Engine ÷ plain loop of the same port calls (goal >= 0.6). */
  shallowVsPlain: number;
  deepBytes: number;
  engineBytesPerSecond: number;
  cpBytesPerSecond: number;
  /** Engine deep clone ÷ cp -r (goal >= 0.9). */
  deepVsCp: number;
  history: {
    shape: string;
    tables: number;
    maxHistoryLength: number;
    parentRuns: number;
    childRuns: number;
    seconds: number;
  }[];
}

async function shallowBench(b: BenchEnv, tables: number) {
  const root = b.tmp('lw-bench-shallow-');
  const ws = await openWorkspace({ kind: 'local', root });
  await ws.createCatalog({ name: 'bench' });
  await ws.createCatalog({ name: 'plain' });
  await ws.createCatalog({ name: 'plain_full' });
  const refs: { schema: string; name: string }[] = [];
  for (let s = 0; s < WORKERS; s++) {
    const schema = `s${s}`;
    await ws.createSchema({ catalog: 'bench', name: schema });
    await ws.createSchema({ catalog: 'plain', name: schema });
    await ws.createSchema({ catalog: 'plain_full', name: schema });
    for (let t = 0; t < tables / WORKERS; t++) refs.push({ schema, name: `t${t}` });
  }
  await pool(refs, 4, (r) =>
    ws.createTableAs({ ref: { catalog: 'bench', ...r }, query: `SELECT ${refs.indexOf(r)} AS k, 'x' AS v` }),
  );
  const cloneOnlySeconds = await timed(() =>
    pool(refs, WORKERS * PARALLEL_TABLES, (r) =>
      ws.cloneTable({ source: { catalog: 'bench', ...r }, target: { catalog: 'plain', ...r }, cloneType: 'SHALLOW' }),
    ),
  );
  // The same port calls the engine makes per table (clone, then metadata, filters and masks), in a plain loop.
  const options = applyCloneDefaults({
    source_catalog: 'bench',
    destination_catalog: 'plain_full',
    clone_type: 'SHALLOW',
  } as CloneRequestInput);
  const ctx = {
    jobId: 'baseline',
    options,
    source: { kind: 'local' as const, root },
    target: { label: 'local', workspace: { kind: 'local' as const, root }, destinationCatalog: 'plain_full' },
    crossWorkspace: false,
  };
  const plainSeconds = await timed(() =>
    pool(refs, WORKERS * PARALLEL_TABLES, (r) =>
      transferTable(ws, ws, ctx, r.schema, r.name, async () => undefined, false),
    ),
  );
  const engine = await b.clone(root, { clone_type: 'SHALLOW', max_workers: WORKERS, parallel_tables: PARALLEL_TABLES });
  if (engine.summary.tables_cloned !== tables)
    throw new Error(`engine cloned ${engine.summary.tables_cloned} of ${tables} tables`);
  return {
    engineTablesPerSecond: tables / engine.seconds,
    plainTablesPerSecond: tables / plainSeconds,
    cloneOnlyTablesPerSecond: tables / cloneOnlySeconds,
  };
}

async function deepBench(b: BenchEnv, rows: number) {
  const root = b.tmp('lw-bench-deep-');
  const ws = await openWorkspace({ kind: 'local', root });
  await ws.createCatalog({ name: 'bench' });
  await ws.createSchema({ catalog: 'bench', name: 'big' });
  const names = Array.from({ length: 6 }, (_, i) => `t${i}`);
  for (const name of names) {
    // Random doubles do not compress: the files really are this big on disk.
    await ws.createTableAs({
      ref: { catalog: 'bench', schema: 'big', name },
      query: `SELECT range AS id, rand() AS c0, rand() AS c1, rand() AS c2, rand() AS c3 FROM range(${rows})`,
    });
  }
  const dirs = await Promise.all(
    names.map(async (name) => (await ws.tableDetail({ catalog: 'bench', schema: 'big', name })).location!),
  );
  const cpRoot = b.tmp('lw-bench-cp-');
  const cpSeconds = await timed(() =>
    pool(dirs, PARALLEL_TABLES, async (d) => execFileSync('cp', ['-r', d, path.join(cpRoot, path.basename(d))])),
  );
  const engine = await b.clone(root, { clone_type: 'DEEP', max_workers: 1, parallel_tables: PARALLEL_TABLES });
  const bytes = engine.summary.bytes_copied;
  return { deepBytes: bytes, engineBytesPerSecond: bytes / engine.seconds, cpBytesPerSecond: bytes / cpSeconds };
}

async function historyBench(b: BenchEnv, tables: number) {
  const out: CloneBenchResult['history'] = [];
  for (const [shape, schemas] of [
    ['100 schemas', 100],
    ['1 schema', 1],
  ] as const) {
    const root = b.tmp('lw-bench-history-');
    const perSchema = Math.ceil(tables / schemas);
    const r = await b.clone(
      root,
      { source_catalog: 'big', destination_catalog: 'big_copy', max_workers: 8, parallel_tables: 8 },
      {
        wrap: (ws) => syntheticWorkspace(ws, { catalog: 'big', schemas, tablesPerSchema: perSchema }),
      },
    );
    const stats = await jobHistoryStats(b.env.client, r.jobId, r.firstRunId);
    out.push({
      shape,
      tables: schemas * perSchema,
      maxHistoryLength: Math.max(stats.parentMax, stats.childMax),
      parentRuns: stats.parentRuns,
      childRuns: stats.childRuns,
      seconds: r.seconds,
    });
  }
  return out;
}

/** LAKEWARD_BENCH_ONLY=shallow,deep,history picks parts (default: all); skipped parts report zeros. */
export async function run(): Promise<CloneBenchResult> {
  const parts = new Set((process.env.LAKEWARD_BENCH_ONLY ?? 'shallow,deep,history').split(','));
  const b = await createBenchEnv();
  try {
    const tables = Number(process.env.LAKEWARD_BENCH_TABLES ?? 1000);
    const shallow = parts.has('shallow')
      ? await shallowBench(b, tables)
      : { engineTablesPerSecond: 0, plainTablesPerSecond: 1, cloneOnlyTablesPerSecond: 1 };
    const deep = parts.has('deep')
      ? await deepBench(b, Number(process.env.LAKEWARD_BENCH_DEEP_ROWS ?? 2_000_000))
      : { deepBytes: 0, engineBytesPerSecond: 0, cpBytesPerSecond: 1 };
    const history = parts.has('history')
      ? await historyBench(b, Number(process.env.LAKEWARD_BENCH_HISTORY_TABLES ?? 10_000))
      : [];
    return {
      tables,
      ...shallow,
      shallowVsPlain: shallow.engineTablesPerSecond / shallow.plainTablesPerSecond,
      ...deep,
      deepVsCp: deep.engineBytesPerSecond / deep.cpBytesPerSecond,
      history,
    };
  } finally {
    await b.close();
  }
}

function report(r: CloneBenchResult): string {
  const mb = (x: number) => (x / 1024 ** 2).toFixed(0);
  return [
    `shallow clone of ${r.tables} tables (parallelism ${WORKERS * PARALLEL_TABLES}): ${r.engineTablesPerSecond.toFixed(1)} tables/s through the workflows; ` +
      `${r.plainTablesPerSecond.toFixed(1)} tables/s making the same port calls in a plain loop; ${r.cloneOnlyTablesPerSecond.toFixed(1)} tables/s calling only cloneTable`,
    `shallow engine / plain loop of the same port calls: ${r.shallowVsPlain.toFixed(2)} (goal >= 0.6); engine / cloneTable-only loop: ${(r.engineTablesPerSecond / r.cloneOnlyTablesPerSecond).toFixed(2)}`,
    `deep clone of ${mb(r.deepBytes)} MB: ${mb(r.engineBytesPerSecond)} MB/s through the workflows, cp -r ${mb(r.cpBytesPerSecond)} MB/s`,
    `deep engine / cp: ${r.deepVsCp.toFixed(2)} (goal >= 0.9)`,
    ...r.history.map(
      (h) =>
        `history, ${h.tables} tables in ${h.shape}: largest run ${h.maxHistoryLength} events (goal <= 10240); ${h.parentRuns} job run(s), ${h.childRuns} schema run(s); ${h.seconds.toFixed(0)} s`,
    ),
  ].join('\n');
}

if (require.main === module) {
  run()
    .then((r) => process.stdout.write(report(r) + '\n'))
    .catch((err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    });
}
