/**
 * Usage-ledger benchmark (Temporal dev server, in-memory store, local lakehouse in os.tmpdir()): a shallow clone of
 * a LAKEWARD_BENCH_LEDGER_TABLES (500)-table catalog on a named warehouse (an engine pool), with the ledger
 * recording each activity's warehouse span in the store ÷ the same clone on the same pool without recording, as
 * tables/s; LAKEWARD_BENCH_ROUNDS (3) paired rounds alternating which side goes first, median ratio (goal >= 0.95).
 *
 *   npx tsx bench/ledger.ts        (or npm run bench ledger)
 */
import { Worker, bundleWorkflowCode } from '@temporalio/worker';
import { createCloneActivities } from '../activities/clone';
import { cachedWorkspaces } from '../activities/clone/workspace-cache';
import { recordWarehouseSpans } from '../activities/finops';
import { onWarehouse } from '../activities/warehouses/gate';
import { openWorkspace } from '../platform';
import { EnginePool } from '../platform/local/warehouse-pool';
import { applyCloneDefaults, type CloneRequestInput } from '../schemas/clone';
import { listJobSpans } from '../store/finops/repo';
import { WORKER_TUNING } from '../workers/worker-tuning';
import { cloneCatalogWorkflow } from '../workflows/clone';
import type { CloneJobInput } from '../workflows/clone/definitions';
import { DEFAULT_HISTORY_LIMITS } from '../workflows/clone/signals';
import { createBenchEnv, median, pool, type BenchEnv, type Progress } from './clone-bench-env';

const WORKERS = 4;
const PARALLEL_TABLES = 4;
const GOAL = 0.95;

export interface LedgerBenchResult {
  tables: number;
  rounds: number;
  ratios: number[];
  withTablesPerSecond: number;
  withoutTablesPerSecond: number;
  spansRecorded: number;
}

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

async function seed(b: BenchEnv, tables: number): Promise<string> {
  const root = b.tmp('lw-bench-ledger-');
  const ws = await openWorkspace({ kind: 'local', root });
  await ws.createCatalog({ name: 'bench' });
  const refs: { schema: string; name: string }[] = [];
  for (let s = 0; s < WORKERS; s++) {
    await ws.createSchema({ catalog: 'bench', name: `s${s}` });
    for (let t = 0; t < tables / WORKERS; t++) refs.push({ schema: `s${s}`, name: `t${t}` });
  }
  await pool(refs, 4, (r) =>
    ws.createTableAs({ ref: { catalog: 'bench', ...r }, query: `SELECT ${refs.indexOf(r)} AS k, 'x' AS v` }),
  );
  return root;
}

export async function run(print: Progress = () => undefined): Promise<LedgerBenchResult> {
  const tables = env('LAKEWARD_BENCH_LEDGER_TABLES', 500);
  const rounds = Math.max(1, env('LAKEWARD_BENCH_ROUNDS', 3));
  const b = await createBenchEnv();
  try {
    const root = await seed(b, tables);
    const bundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows/clone'), logger: silent });
    // One warehouse of WORKERS × PARALLEL_TABLES clusters: every table copy gets a cluster, as without a pool.
    const warehouse = new EnginePool('bench-warehouse', {
      clusters: WORKERS * PARALLEL_TABLES,
      threads: 1,
      memoryLimitMb: 512,
    });
    let n = 0;
    const cloneOnce = async (record: boolean, destination: string) => {
      const taskQueue = `bench-ledger-${process.pid}-${n++}`;
      const workspaces = cachedWorkspaces(async (ref) =>
        onWarehouse(
          await openWorkspace({ kind: 'local', root: (ref as { root: string }).root }),
          async () => warehouse,
        ),
      );
      const clone = createCloneActivities({ db: b.store.db, resolveWorkspace: workspaces.resolve });
      const worker = await Worker.create({
        connection: b.env.nativeConnection,
        taskQueue,
        ...WORKER_TUNING,
        workflowBundle: bundle,
        activities: record ? recordWarehouseSpans(b.store.db, clone) : clone,
        maxConcurrentActivityTaskExecutions: 64,
      });
      const input = (catalog: string, id: string, source = 'bench'): CloneJobInput => {
        const options = applyCloneDefaults({
          source_catalog: source,
          destination_catalog: catalog,
          clone_type: 'SHALLOW',
          max_workers: WORKERS,
          parallel_tables: PARALLEL_TABLES,
        } as CloneRequestInput);
        return {
          jobId: id,
          options,
          source: { kind: 'local', root },
          targets: [{ label: 'local', workspace: { kind: 'local', root }, destinationCatalog: catalog }],
          createdAt: new Date().toISOString(),
          maxRetries: 3,
          limits: { ...DEFAULT_HISTORY_LIMITS },
        };
      };
      return worker.runUntil(async () => {
        const id = `clone-20261124-000000-${n.toString(16).padStart(4, '0')}`;
        const start = process.hrtime.bigint();
        const summary = await b.env.client.workflow.execute(cloneCatalogWorkflow, {
          taskQueue,
          workflowId: id,
          args: [input(destination, id)],
        });
        if (summary.tables_cloned !== tables) throw new Error(`cloned ${summary.tables_cloned} of ${tables} tables`);
        return Number(process.hrtime.bigint() - start) / 1e9;
      });
    };
    await cloneOnce(false, 'warm_up'); // bundle loaded, pollers and DuckDB instances warm for both sides
    const withTps: number[] = [];
    const withoutTps: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      let withS: number;
      let withoutS: number;
      if (round % 2 === 0) {
        withoutS = await cloneOnce(false, `plain_${round}`);
        withS = await cloneOnce(true, `ledger_${round}`);
      } else {
        withS = await cloneOnce(true, `ledger_${round}`);
        withoutS = await cloneOnce(false, `plain_${round}`);
      }
      withTps.push(tables / withS);
      withoutTps.push(tables / withoutS);
      ratios.push(withoutS / withS);
      print(`  … round ${round + 1} of ${rounds}: with ledger ${withS.toFixed(1)} s, without ${withoutS.toFixed(1)} s`);
    }
    warehouse.close();
    return {
      tables,
      rounds,
      ratios,
      withTablesPerSecond: median(withTps),
      withoutTablesPerSecond: median(withoutTps),
      spansRecorded: (await listJobSpans(b.store.db)).length,
    };
  } finally {
    await b.close();
  }
}

export function report(r: LedgerBenchResult): string {
  const ratio = median(r.ratios);
  return [
    `shallow clone of ${r.tables} tables on a named warehouse, median of ${r.rounds} paired rounds:`,
    `  with ledger recording ${r.withTablesPerSecond.toFixed(1)} tables/s, without ${r.withoutTablesPerSecond.toFixed(1)} tables/s`,
    `  with ÷ without = ${ratio.toFixed(3)} (rounds: ${r.ratios.map((x) => x.toFixed(3)).join(', ')}; goal >= ${GOAL}: ${ratio >= GOAL ? 'met' : 'NOT met'})`,
    `  spans recorded: ${r.spansRecorded}`,
  ].join('\n');
}

if (require.main === module) {
  run((line) => console.log(line))
    .then((r) => console.log(report(r)))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
