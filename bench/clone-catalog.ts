/**
 * Clone engine benchmark (Temporal dev server, in-memory store, local lakehouse in os.tmpdir()):
 * - shallow clone of a 1,000-table catalog through the workflows: tables/s, and the ratio to calling
 *   the same port calls in a plain loop at the same parallelism (goal >= 0.6);
 * - deep clone bytes/s through the workflows as a ratio to `cp -r` of the same table folders, four cp
 *   processes at once as the engine copies four tables at once (goal >= 0.9). The default catalog holds
 *   48 tables of about 170 MB (8 GB): a job has a fixed cost of a few hundred ms (workflow start, the
 *   schema workflow, planning, completion) that a copy of a few hundred MB from the page cache does not
 *   hide — LAKEWARD_BENCH_DEEP_TABLES=6 LAKEWARD_BENCH_DEEP_ROWS=2000000 measures that small case;
 * - the largest workflow history (any run of the job or a schema workflow) cloning a 10,000-table catalog,
 *   as many schemas and as one schema (goal <= 10,240 events), over a platform whose clone is a no-op.
 * The two throughput parts run LAKEWARD_BENCH_ROUNDS (3) rounds, each timing the baseline and the engine
 * on fresh destinations (alternating which goes first), and report the median of the per-round ratios: on
 * a shared two-core machine one `cp -r` or one loop swings by a factor of two or more between runs, and
 * pairing each engine run with a baseline run next to it in time cancels most of that.
 * Sizes: LAKEWARD_BENCH_TABLES (1000), LAKEWARD_BENCH_DEEP_TABLES (48), LAKEWARD_BENCH_DEEP_ROWS (rows per
 * deep table, 5,000,000), LAKEWARD_BENCH_HISTORY_TABLES (10000); LAKEWARD_BENCH_DATABASE_URL puts the
 * store on Postgres.
 *
 *   npx tsx bench/clone-catalog.ts
 */
import { execFile, execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { transferTable } from '../activities/clone/table-transfer';
import { openWorkspace } from '../platform';
import { applyCloneDefaults, type CloneRequestInput } from '../schemas/clone';
import { jobHistoryStats } from '../test/clone/history-size';
import { syntheticWorkspace } from '../test/clone/fixtures/synthetic-workspace';
import { createBenchEnv, pool, timed, type BenchEnv } from './clone-bench-env';

const execFileAsync = promisify(execFile);

const WORKERS = 4;
const PARALLEL_TABLES = 4;

export interface CloneBenchResult {
  rounds: number;
  tables: number;
  engineTablesPerSecond: number;
  /** The same per-table port calls as the engine (clone + metadata), in a plain loop. */
  plainTablesPerSecond: number;
  /** Only `cloneTable` in a plain loop (no metadata copy). */
  cloneOnlyTablesPerSecond: number;
  /** Engine ÷ plain loop of the same port calls, median over the rounds (goal >= 0.6). */
  shallowVsPlain: number;
  shallowRatios: number[];
  deepBytes: number;
  engineBytesPerSecond: number;
  cpBytesPerSecond: number;
  /** Engine deep clone ÷ cp -r, median over the rounds (goal >= 0.9). */
  deepVsCp: number;
  deepRatios: number[];
  /** The same, each side timed until its copy is on disk (`sync` included). */
  deepDurable: number;
  deepDurableRatios: number[];
  /** Bytes per second of each round: the engine and cp. */
  deepRounds: { engine: number; cp: number }[];
  history: {
    shape: string;
    tables: number;
    maxHistoryLength: number;
    parentRuns: number;
    childRuns: number;
    seconds: number;
  }[];
}

async function shallowBench(b: BenchEnv, tables: number, rounds: number) {
  const root = b.tmp('lw-bench-shallow-');
  const ws = await openWorkspace({ kind: 'local', root });
  await ws.createCatalog({ name: 'bench' });
  const refs: { schema: string; name: string }[] = [];
  for (let s = 0; s < WORKERS; s++) {
    const schema = `s${s}`;
    await ws.createSchema({ catalog: 'bench', name: schema });
    for (let t = 0; t < tables / WORKERS; t++) refs.push({ schema, name: `t${t}` });
  }
  await pool(refs, 4, (r) =>
    ws.createTableAs({ ref: { catalog: 'bench', ...r }, query: `SELECT ${refs.indexOf(r)} AS k, 'x' AS v` }),
  );
  const fresh = async (catalog: string) => {
    await ws.createCatalog({ name: catalog });
    for (let s = 0; s < WORKERS; s++) await ws.createSchema({ catalog, name: `s${s}` });
  };
  await fresh('clone_only');
  const cloneOnlySeconds = await timed(() =>
    pool(refs, WORKERS * PARALLEL_TABLES, (r) =>
      ws.cloneTable({
        source: { catalog: 'bench', ...r },
        target: { catalog: 'clone_only', ...r },
        cloneType: 'SHALLOW',
      }),
    ),
  );
  const plain: number[] = [];
  const engine: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // The same port calls the engine makes per table (clone, then metadata, filters and masks), in a plain loop.
    const baselineCatalog = `plain_${round}`;
    await fresh(baselineCatalog);
    const options = applyCloneDefaults({
      source_catalog: 'bench',
      destination_catalog: baselineCatalog,
      clone_type: 'SHALLOW',
    } as CloneRequestInput);
    const ctx = {
      jobId: 'baseline',
      options,
      source: { kind: 'local' as const, root },
      target: { label: 'local', workspace: { kind: 'local' as const, root }, destinationCatalog: baselineCatalog },
      crossWorkspace: false,
    };
    const plainOnce = () =>
      timed(() =>
        pool(refs, WORKERS * PARALLEL_TABLES, (r) =>
          transferTable(ws, ws, ctx, r.schema, r.name, async () => undefined, false),
        ),
      );
    const engineOnce = () =>
      b.clone(root, {
        destination_catalog: `bench_copy_${round}`,
        clone_type: 'SHALLOW',
        max_workers: WORKERS,
        parallel_tables: PARALLEL_TABLES,
      });
    // Alternate which side goes first (see the deep part).
    let plainSeconds: number;
    let run: Awaited<ReturnType<typeof engineOnce>>;
    if (round % 2 === 0) {
      plainSeconds = await plainOnce();
      run = await engineOnce();
    } else {
      run = await engineOnce();
      plainSeconds = await plainOnce();
    }
    if (run.summary.tables_cloned !== tables)
      throw new Error(`engine cloned ${run.summary.tables_cloned} of ${tables} tables`);
    plain.push(tables / plainSeconds);
    engine.push(tables / run.seconds);
    ratios.push(plainSeconds / run.seconds);
  }
  return {
    engineTablesPerSecond: median(engine),
    plainTablesPerSecond: median(plain),
    cloneOnlyTablesPerSecond: tables / cloneOnlySeconds,
    shallowVsPlain: median(ratios),
    shallowRatios: ratios,
  };
}

async function deepBench(b: BenchEnv, rows: number, tableCount: number, rounds: number) {
  const root = b.tmp('lw-bench-deep-');
  const ws = await openWorkspace({ kind: 'local', root });
  await ws.createCatalog({ name: 'bench' });
  await ws.createSchema({ catalog: 'bench', name: 'big' });
  const names = Array.from({ length: tableCount }, (_, i) => `t${i}`);
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
  let bytes = 0;
  const cp: number[] = [];
  const engine: number[] = [];
  const ratios: number[] = [];
  const durableRatios: number[] = [];
  // Each side is timed twice: until its last byte is in the page cache, and until `sync` has written it
  // to disk ("durable"). On this size of machine the first is a race for memory bandwidth and CPU, which
  // the engine's own work (Temporal, the store, the metastore) competes for; the second is what a copy
  // costs once the data has to reach a disk, as it does in any real deep clone.
  const cpOnce = async (): Promise<{ copy: number; durable: number }> => {
    // Each timed copy starts with no dirty pages left by the previous one (writeback would slow it down).
    execFileSync('sync');
    const cpRoot = b.tmp('lw-bench-cp-');
    const copy = await timed(() =>
      // Asynchronous, so PARALLEL_TABLES cp processes really run at once (the engine's parallelism).
      pool(dirs, PARALLEL_TABLES, (d) => execFileAsync('cp', ['-r', d, path.join(cpRoot, path.basename(d))])),
    );
    const durable = copy + (await timed(() => execFileSync('sync')));
    rmSync(cpRoot, { recursive: true, force: true });
    return { copy, durable };
  };
  const engineOnce = async (round: number): Promise<{ copy: number; durable: number }> => {
    execFileSync('sync');
    const destination = `bench_copy_${round}`;
    const run = await b.clone(root, {
      destination_catalog: destination,
      clone_type: 'DEEP',
      max_workers: 1,
      parallel_tables: PARALLEL_TABLES,
    });
    const durable = run.seconds + (await timed(() => execFileSync('sync')));
    bytes = run.summary.bytes_copied;
    // Each round writes fresh files, as cp does: the copies of earlier rounds leave the disk.
    await ws.dropCatalog(destination, { cascade: true });
    return { copy: run.seconds, durable };
  };
  for (let round = 0; round < rounds; round++) {
    // Alternate which side goes first, so a machine slowing down (or speeding up) during the run
    // does not always favour the same side.
    let c: { copy: number; durable: number };
    let e: { copy: number; durable: number };
    if (round % 2 === 0) {
      c = await cpOnce();
      e = await engineOnce(round);
    } else {
      e = await engineOnce(round);
      c = await cpOnce();
    }
    cp.push(bytes / c.copy);
    engine.push(bytes / e.copy);
    ratios.push(c.copy / e.copy);
    durableRatios.push(c.durable / e.durable);
  }
  return {
    deepBytes: bytes,
    engineBytesPerSecond: median(engine),
    cpBytesPerSecond: median(cp),
    deepVsCp: median(ratios),
    deepRatios: ratios,
    deepDurable: median(durableRatios),
    deepDurableRatios: durableRatios,
    deepRounds: engine.map((e, i) => ({ engine: e, cp: cp[i] })),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((x, y) => x - y);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
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
  const rounds = Math.max(1, Number(process.env.LAKEWARD_BENCH_ROUNDS ?? 3));
  const b = await createBenchEnv();
  try {
    const tables = Number(process.env.LAKEWARD_BENCH_TABLES ?? 1000);
    const shallow = parts.has('shallow')
      ? await shallowBench(b, tables, rounds)
      : {
          engineTablesPerSecond: 0,
          plainTablesPerSecond: 0,
          cloneOnlyTablesPerSecond: 0,
          shallowVsPlain: 0,
          shallowRatios: [],
        };
    const deep = parts.has('deep')
      ? await deepBench(
          b,
          Number(process.env.LAKEWARD_BENCH_DEEP_ROWS ?? 5_000_000),
          Number(process.env.LAKEWARD_BENCH_DEEP_TABLES ?? 48),
          rounds,
        )
      : {
          deepBytes: 0,
          engineBytesPerSecond: 0,
          cpBytesPerSecond: 0,
          deepVsCp: 0,
          deepRatios: [],
          deepDurable: 0,
          deepDurableRatios: [],
          deepRounds: [],
        };
    const history = parts.has('history')
      ? await historyBench(b, Number(process.env.LAKEWARD_BENCH_HISTORY_TABLES ?? 10_000))
      : [];
    return { rounds, tables, ...shallow, ...deep, history };
  } finally {
    await b.close();
  }
}

export function report(r: CloneBenchResult): string {
  const mb = (x: number) => (x / 1024 ** 2).toFixed(0);
  const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
  const lines: string[] = [];
  if (r.shallowRatios.length > 0)
    lines.push(
      `shallow clone of ${r.tables} tables (parallelism ${WORKERS * PARALLEL_TABLES}), median of ${r.rounds} round(s): ` +
        `${r.engineTablesPerSecond.toFixed(1)} tables/s through the workflows; ${r.plainTablesPerSecond.toFixed(1)} tables/s making the same port calls in a plain loop; ` +
        `${r.cloneOnlyTablesPerSecond.toFixed(1)} tables/s calling only cloneTable (once)`,
      `shallow engine / plain loop of the same port calls: ${r.shallowVsPlain.toFixed(2)} (goal >= 0.6); rounds: ${list(r.shallowRatios)}`,
    );
  if (r.deepRatios.length > 0)
    lines.push(
      `deep clone of ${mb(r.deepBytes)} MB, median of ${r.rounds} round(s): ${mb(r.engineBytesPerSecond)} MB/s through the workflows, cp -r ${mb(r.cpBytesPerSecond)} MB/s`,
      `deep engine / cp: ${r.deepVsCp.toFixed(2)} (goal >= 0.9); rounds: ${r.deepRounds
        .map((x, i) => `${r.deepRatios[i].toFixed(2)} (${mb(x.engine)} vs ${mb(x.cp)} MB/s)`)
        .join(', ')}`,
      `deep engine / cp, both timed until the copy is on disk (sync included): ${r.deepDurable.toFixed(2)} (goal >= 0.9); rounds: ${list(r.deepDurableRatios)}`,
    );
  lines.push(
    ...r.history.map(
      (h) =>
        `history, ${h.tables} tables in ${h.shape}: largest run ${h.maxHistoryLength} events (goal <= 10240); ${h.parentRuns} job run(s), ${h.childRuns} schema run(s); ${h.seconds.toFixed(0)} s`,
    ),
  );
  return lines.join('\n');
}

if (require.main === module) {
  run()
    .then((r) => process.stdout.write(report(r) + '\n'))
    .catch((err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    });
}
