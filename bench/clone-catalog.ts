/**
 * Clone engine benchmark (Temporal dev server, in-memory store, local lakehouse in os.tmpdir()). Parts
 * (LAKEWARD_BENCH_ONLY=shallow,deep,small,fixed,history picks some; default all), each printed as it finishes,
 * with progress lines meanwhile:
 * - shallow: a 1,000-table catalog through the workflows, tables/s, and the ratio to calling the same port
 *   calls in a plain loop at the same parallelism (goal >= 0.8);
 * - deep: bytes/s through the workflows as a ratio to `cp -r` of the same table folders, four cp processes at
 *   once as the engine copies four tables at once (goal >= 0.9). The default catalog holds 48 tables of about
 *   170 MB (8 GB); LAKEWARD_BENCH_DEEP_ROWS=2000000 is the middle size (48 tables of about 69 MB, 3.3 GB);
 * - small: one table of about 200 MB, deep, engine ÷ cp (a small job, where the job's fixed cost shows);
 * - fixed: a one-table deep job from POST /api/clone (real API app and job kernel queue) until the job's
 *   completed_at, median of LAKEWARD_BENCH_FIXED_RUNS (7) jobs, in ms (goal < 300);
 * - history: the largest workflow history (any run of the job or a schema workflow) cloning a 10,000-table
 *   catalog as 100 schemas and as one schema (goal <= 10,240 events) over a platform whose clone is a no-op,
 *   and the peak RSS of the process running the worker meanwhile (goal <= 1 GiB; its store is a fresh database on
 *   the DATABASE_URL Postgres server when that is set, as in production, else PGlite inside that process).
 * The throughput parts run LAKEWARD_BENCH_ROUNDS (3) rounds, each timing the baseline and the engine on fresh
 * destinations (alternating which goes first), and report the median of the per-round ratios: on a shared
 * two-core machine one `cp -r` or one loop swings by a factor of two or more between runs, and pairing each
 * engine run with a baseline run next to it in time cancels most of that.
 * Sizes: LAKEWARD_BENCH_TABLES (1000), LAKEWARD_BENCH_DEEP_TABLES (48), LAKEWARD_BENCH_DEEP_ROWS (rows per deep
 * table, 5,000,000), LAKEWARD_BENCH_SMALL_ROWS (6,000,000), LAKEWARD_BENCH_HISTORY_TABLES (10000);
 * LAKEWARD_BENCH_DATABASE_URL puts the store on Postgres.
 *
 *   npx tsx bench/clone-catalog.ts
 */
import { createBenchEnv, median, type Progress } from './clone-bench-env';
import { deepBench } from './deep-part';
import { fixedCostBench } from './fixed-cost';
import { historyBench, type HistoryFigure } from './history-part';
import { PARALLEL_TABLES, shallowBench, WORKERS } from './shallow-part';

type Shallow = Awaited<ReturnType<typeof shallowBench>> & { tables: number };
type Deep = Awaited<ReturnType<typeof deepBench>>;

export interface CloneBenchResult {
  rounds: number;
  shallow?: Shallow;
  deep?: Deep;
  small?: Deep;
  /** Milliseconds from POST to completed_at of each one-table job. */
  fixedCostMs?: number[];
  history: HistoryFigure[];
}

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export async function run(print: Progress = () => undefined): Promise<CloneBenchResult> {
  const parts = new Set((process.env.LAKEWARD_BENCH_ONLY ?? 'shallow,deep,small,fixed,history').split(','));
  const rounds = Math.max(1, env('LAKEWARD_BENCH_ROUNDS', 3));
  const progress: Progress = (line) => print(`  … ${line}`);
  const r: CloneBenchResult = { rounds, history: [] };
  const b = await createBenchEnv();
  try {
    if (parts.has('shallow')) {
      const tables = env('LAKEWARD_BENCH_TABLES', 1000);
      r.shallow = { tables, ...(await shallowBench(b, tables, rounds, progress)) };
      print(shallowLines(r.shallow, rounds));
    }
    if (parts.has('deep')) {
      const rows = env('LAKEWARD_BENCH_DEEP_ROWS', 5_000_000);
      r.deep = await deepBench(b, rows, env('LAKEWARD_BENCH_DEEP_TABLES', 48), rounds, progress);
      print(deepLines('deep clone', r.deep, rounds));
    }
    if (parts.has('small')) {
      r.small = await deepBench(b, env('LAKEWARD_BENCH_SMALL_ROWS', 6_000_000), 1, rounds, progress, 'small');
      print(deepLines('small job (one table, deep)', r.small, rounds));
    }
    if (parts.has('fixed')) {
      r.fixedCostMs = (await fixedCostBench(b, env('LAKEWARD_BENCH_FIXED_RUNS', 7), progress)).fixedCostMs;
      print(fixedLines(r.fixedCostMs));
    }
    if (parts.has('history')) {
      r.history = await historyBench(env('LAKEWARD_BENCH_HISTORY_TABLES', 10_000), progress);
      print(historyLines(r.history));
    }
    return r;
  } finally {
    await b.close();
  }
}

const mb = (x: number) => (x / 1024 ** 2).toFixed(0);
const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');

function shallowLines(s: Shallow, rounds: number): string {
  return [
    `shallow clone of ${s.tables} tables (parallelism ${WORKERS * PARALLEL_TABLES}), median of ${rounds} round(s): ` +
      `${s.engineTablesPerSecond.toFixed(1)} tables/s through the workflows; ${s.plainTablesPerSecond.toFixed(1)} tables/s making the same port calls in a plain loop; ` +
      `${s.cloneOnlyTablesPerSecond.toFixed(1)} tables/s calling only cloneTable (once)`,
    `shallow engine / plain loop of the same port calls: ${s.shallowVsPlain.toFixed(2)} (goal >= 0.8); rounds: ${list(s.shallowRatios)}`,
  ].join('\n');
}

function deepLines(label: string, d: Deep, rounds: number): string {
  return [
    `${label} of ${mb(d.deepBytes)} MB, median of ${rounds} round(s): ${mb(d.engineBytesPerSecond)} MB/s through the workflows, cp -r ${mb(d.cpBytesPerSecond)} MB/s`,
    `${label}, engine / cp: ${d.deepVsCp.toFixed(2)} (goal >= 0.9); rounds: ${d.deepRounds
      .map((x, i) => `${d.deepRatios[i].toFixed(2)} (${mb(x.engine)} vs ${mb(x.cp)} MB/s)`)
      .join(', ')}`,
    `${label}, engine / cp, both timed until the copy is on disk (sync included): ${d.deepDurable.toFixed(2)} (goal >= 0.9); rounds: ${list(d.deepDurableRatios)}`,
  ].join('\n');
}

function fixedLines(ms: number[]): string {
  return `fixed cost of a one-table deep job, POST /api/clone to completed_at: median ${median(ms).toFixed(0)} ms of ${ms.length} (goal < 300); runs: ${ms.join(', ')} ms`;
}

function historyLines(history: HistoryFigure[]): string {
  return history
    .map(
      (h) =>
        `history, ${h.tables} tables in ${h.shape}: largest run ${h.maxHistoryLength} events (goal <= 10240); ${h.parentRuns} job run(s), ${h.childRuns} schema run(s); ` +
        `worker peak RSS ${mb(h.peakRssBytes)} MiB (goal <= 1024; store: ${h.store}); ${h.seconds.toFixed(0)} s`,
    )
    .join('\n');
}

export function report(r: CloneBenchResult): string {
  const lines: string[] = [];
  if (r.shallow) lines.push(shallowLines(r.shallow, r.rounds));
  if (r.deep) lines.push(deepLines('deep clone', r.deep, r.rounds));
  if (r.small) lines.push(deepLines('small job (one table, deep)', r.small, r.rounds));
  if (r.fixedCostMs) lines.push(fixedLines(r.fixedCostMs));
  if (r.history.length) lines.push(historyLines(r.history));
  return lines.join('\n');
}

if (require.main === module) {
  run((line) => process.stdout.write(`${line}\n`))
    .then((r) => process.stdout.write(`\nsummary:\n${report(r)}\n`))
    .catch((err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    });
}
