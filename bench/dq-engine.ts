/**
 * Data-quality engine benchmark: 20 row-level checks on a local Delta table, run by the engine (the dq run
 * activity's code: load checks, compile, one scan, samples, store) against ONE hand-written DuckDB query computing
 * the same 20 failure counts over the same Parquet files. Prints the ratio baseline ÷ engine (goal ≥ 0.8), rows/s
 * and the worker's peak RSS (the engine runs in its own process, like a worker) for each table size.
 *
 * On a shared machine single timings swing by 2×, so the comparison is paired: LAKEWARD_BENCH_ROUNDS (3) rounds,
 * each a fresh engine process and a fresh baseline process run back to back (which goes first alternates), each
 * timing one run after a warm-up run over the same files; the figures are the medians of the rounds, and every
 * round's pair is printed.
 *
 *   npx tsx bench/dq-engine.ts                          # 1M and 10M rows
 *   LAKEWARD_BENCH_DQ_ROWS=100000,1000000 npx tsx bench/dq-engine.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { normalizeCheck } from '../activities/data-quality/logic';
import { runTableChecks } from '../activities/data-quality/run-table';
import { duckString, withDuck } from '../platform/local/duck';
import { LocalWorkspace } from '../platform/local/workspace';
import { insertChecks, type NewDqCheckRow } from '../store/data-quality/checks';
import { getRun } from '../store/data-quality/runs';
import { openStore } from '../store/db';

const REF = { catalog: 'bench', schema: 'dq', name: 'events' };
const FQN = 'bench.dq.events';
const COLUMNS = [
  { name: 'id', type: 'bigint' },
  { name: 'a', type: 'double' },
  { name: 'b', type: 'double' },
  { name: 'c', type: 'bigint' },
  { name: 's', type: 'string' },
  { name: 't', type: 'string' },
];

/** The 20 checks, each with the predicate a person would write by hand in DuckDB for its failures. */
function checks(rows: number): { fn: string; args: Record<string, unknown>; failing: string }[] {
  return [
    { fn: 'is_not_null', args: { column: 's' }, failing: 's IS NULL' },
    { fn: 'is_not_null', args: { column: 't' }, failing: 't IS NULL' },
    { fn: 'is_not_null', args: { column: 'a' }, failing: 'a IS NULL' },
    { fn: 'is_not_null', args: { column: 'b' }, failing: 'b IS NULL' },
    { fn: 'is_not_null', args: { column: 'c' }, failing: 'c IS NULL' },
    { fn: 'is_not_null', args: { column: 'id' }, failing: 'id IS NULL' },
    { fn: 'is_not_less_than', args: { column: 'a', limit: 0 }, failing: 'a < 0' },
    { fn: 'is_not_greater_than', args: { column: 'a', limit: 990 }, failing: 'a > 990' },
    { fn: 'is_in_range', args: { column: 'b', min_limit: 0, max_limit: 500 }, failing: 'b < 0 OR b > 500' },
    { fn: 'is_not_in_range', args: { column: 'c', min_limit: 100, max_limit: 200 }, failing: 'c >= 100 AND c <= 200' },
    { fn: 'is_in_list', args: { column: 't', allowed: ['x', 'y', 'z'] }, failing: "t NOT IN ('x', 'y', 'z')" },
    { fn: 'is_not_in_list', args: { column: 't', forbidden: ['w'] }, failing: "t IN ('w')" },
    { fn: 'is_not_less_than', args: { column: 'c', limit: 0 }, failing: 'c < 0' },
    { fn: 'is_not_greater_than', args: { column: 'c', limit: 4000 }, failing: 'c > 4000' },
    { fn: 'is_in_range', args: { column: 'a', min_limit: 0, max_limit: 999 }, failing: 'a < 0 OR a > 999' },
    { fn: 'is_in_range', args: { column: 'id', min_limit: 0, max_limit: rows }, failing: `id < 0 OR id > ${rows}` },
    { fn: 'is_not_less_than', args: { column: 'b', limit: 10 }, failing: 'b < 10' },
    { fn: 'is_not_greater_than', args: { column: 'id', limit: rows - 100 }, failing: `id > ${rows - 100}` },
    { fn: 'is_not_in_range', args: { column: 'a', min_limit: 500, max_limit: 510 }, failing: 'a >= 500 AND a <= 510' },
    { fn: 'is_in_list', args: { column: 's', allowed: ['c1', 'c2', 'c3'] }, failing: "s NOT IN ('c1', 'c2', 'c3')" },
  ];
}

const TABLE_SQL = (rows: number) =>
  `SELECT id, CAST(id % 1000 AS DOUBLE) AS a, CAST(id % 777 AS DOUBLE) AS b, id % 5000 AS c, ` +
  `CASE WHEN id % 97 = 0 THEN NULL ELSE concat('c', CAST(id % 7 AS STRING)) END AS s, ` +
  `CASE WHEN id % 11 = 0 THEN 'w' WHEN id % 3 = 0 THEN 'x' ELSE 'y' END AS t FROM range(${rows}) AS r(id)`;

/**
 * The data files of the table's current Delta snapshot (adds minus removes of its JSON log; a table this bench
 * writes has no checkpoint), the files the engine's scan reads, so the hand-written query reads exactly those.
 */
function snapshotFiles(dir: string): string[] {
  const logDir = path.join(dir, '_delta_log');
  const logs = readdirSync(logDir).filter((f) => /^\d{20}\.json$/.test(f));
  if (readdirSync(logDir).some((f) => f.includes('checkpoint'))) throw new Error('unexpected checkpoint');
  const live = new Set<string>();
  for (const f of logs.sort()) {
    for (const line of readFileSync(path.join(logDir, f), 'utf8').split('\n').filter(Boolean)) {
      const action = JSON.parse(line) as { add?: { path: string }; remove?: { path: string } };
      if (action.add) live.add(decodeURIComponent(action.add.path));
      if (action.remove) live.delete(decodeURIComponent(action.remove.path));
    }
  }
  return [...live].sort().map((p) => path.join(dir, p));
}

/** Peak resident set size of this process (VmHWM), in MB. */
function peakRssMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : Math.round(process.memoryUsage().rss / 1024 / 1024);
}

const ROUNDS = Math.max(1, Number(process.env.LAKEWARD_BENCH_ROUNDS ?? 3));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** With LAKEWARD_BENCH_DQ_TRACE set, each query's time goes to stderr (where the engine's time goes). */
function traced(ws: LocalWorkspace): LocalWorkspace {
  if (!process.env.LAKEWARD_BENCH_DQ_TRACE) return ws;
  const query = ws.query.bind(ws);
  ws.query = async (sql: string) => {
    const started = process.hrtime.bigint();
    try {
      return await query(sql);
    } finally {
      console.error(`${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms  ${sql.slice(0, 60)}`);
    }
  };
  return ws;
}

/** Child "worker": the engine's run of the table's 20 checks, timed after a warm-up run; prints {seconds, counts, peakRssMb}. */
async function engineChild(root: string, rows: number): Promise<void> {
  const ws = traced(new LocalWorkspace({ root, user: 'bench' }));
  const store = await openStore({});
  const table = { columns: COLUMNS };
  const inputs: NewDqCheckRow[] = checks(rows).map((c, i) => {
    const r = normalizeCheck({ table_fqn: FQN, check_function: c.fn, arguments: c.args, name: `c${i}` }, table);
    if (!r.ok) throw new Error(`check ${i}: ${JSON.stringify(r.issues)}`);
    const k = r.check[0];
    return {
      ...k,
      checkId: `c${String(i).padStart(2, '0')}`,
      tableFqn: FQN,
      checkFunction: k.check_function,
      createdBy: 'bench',
      filterExpr: null,
      userMetadata: null,
    };
  });
  await insertChecks(store.db, inputs, 'bench', { audit: false });
  let seconds = 0;
  let counts: number[] = [];
  for (let i = 0; i <= 1; i++) {
    const runId = `bench-${i}`;
    const started = process.hrtime.bigint();
    const out = await runTableChecks(ws, store, { jobId: runId, runId, tableFqn: FQN, executedBy: 'bench' });
    const s = Number(process.hrtime.bigint() - started) / 1e9;
    if (out.status !== 'completed') throw new Error(out.error ?? 'run failed');
    seconds = s; // run 0 warms the file cache
    const run = await getRun(store.db, runId);
    counts = ((run?.checkResults ?? []) as { check_id: string; failures: number }[])
      .sort((x, y) => x.check_id.localeCompare(y.check_id))
      .map((c) => c.failures);
  }
  console.log(JSON.stringify({ seconds, counts, peakRssMb: peakRssMb() }));
  await store.close();
  await ws.close();
}

/** Child: the hand-written query, one scan over the same Parquet files with DuckDB's same thread setting. */
async function baselineChild(files: string[], rows: number): Promise<void> {
  const list = `[${files.map(duckString).join(', ')}]`;
  const sql = `SELECT ${checks(rows)
    .map((c, i) => `count_if(${c.failing}) AS f${i}`)
    .join(', ')} FROM read_parquet(${list})`;
  let seconds = 0;
  let counts: number[] = [];
  for (let i = 0; i <= 1; i++) {
    const started = process.hrtime.bigint();
    const row = await withDuck(async (conn) => (await conn.runAndReadAll(sql)).getRowObjects()[0]);
    seconds = Number(process.hrtime.bigint() - started) / 1e9; // run 0 warms the file cache
    counts = checks(rows).map((_, k) => Number(row[`f${k}`]));
  }
  console.log(JSON.stringify({ seconds, counts, peakRssMb: peakRssMb() }));
}

interface ChildResult {
  seconds: number;
  counts: number[];
  peakRssMb: number;
}

function child(args: string[]): ChildResult {
  const out = execFileSync(process.execPath, [...process.execArgv, __filename, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  return JSON.parse(out.trim().split('\n').at(-1) as string);
}

async function main(): Promise<void> {
  const sizes = (process.env.LAKEWARD_BENCH_DQ_ROWS ?? '1000000,10000000').split(',').map(Number);
  const summary: string[] = [];
  for (const rows of sizes) {
    const root = mkdtempSync(path.join(os.tmpdir(), 'lw-bench-dq-'));
    try {
      console.log(`[${rows.toLocaleString('en')} rows] writing the table …`);
      const ws = new LocalWorkspace({ root, user: 'bench' });
      await ws.createCatalog({ name: REF.catalog });
      await ws.createSchema({ catalog: REF.catalog, name: REF.schema });
      await ws.createTableAs({ ref: REF, query: TABLE_SQL(rows) });
      const location = (await ws.tableDetail(REF)).location as string;
      await ws.close();
      const files = snapshotFiles(location);
      const label = `[${rows.toLocaleString('en')} rows]`;
      console.log(`${label} ${files.length} data files; ${ROUNDS} paired rounds (engine, hand-written query) …`);
      const pairs: { engine: ChildResult; base: ChildResult }[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const runEngine = () => child(['--engine', root, String(rows)]);
        const runBase = () => child(['--baseline', String(rows), ...files]);
        const engineFirst = r % 2 === 0;
        const first = engineFirst ? runEngine() : runBase();
        const second = engineFirst ? runBase() : runEngine();
        const pair = engineFirst ? { engine: first, base: second } : { engine: second, base: first };
        pairs.push(pair);
        console.log(
          `${label} round ${r + 1} (${engineFirst ? 'engine' : 'query'} first): engine ${pair.engine.seconds.toFixed(3)} s, ` +
            `query ${pair.base.seconds.toFixed(3)} s, ratio ${(pair.base.seconds / pair.engine.seconds).toFixed(2)}, ` +
            `worker peak RSS ${pair.engine.peakRssMb} MB (query process ${pair.base.peakRssMb} MB)`,
        );
      }
      const engineS = median(pairs.map((p) => p.engine.seconds));
      const baseS = median(pairs.map((p) => p.base.seconds));
      const ratio = median(pairs.map((p) => p.base.seconds / p.engine.seconds));
      const differ = pairs.find((p) => JSON.stringify(p.engine.counts) !== JSON.stringify(p.base.counts));
      const line =
        `${rows.toLocaleString('en')} rows, 20 row checks, median of ${ROUNDS} paired round(s): engine ${engineS.toFixed(3)} s, ` +
        `hand-written query ${baseS.toFixed(3)} s, ratio ${ratio.toFixed(2)} (goal ≥ 0.8; rounds ` +
        `${pairs.map((p) => (p.base.seconds / p.engine.seconds).toFixed(2)).join(', ')}), ` +
        `${Math.round(rows / engineS).toLocaleString('en')} rows/s, worker peak RSS ${Math.max(...pairs.map((p) => p.engine.peakRssMb))} MB, ` +
        `counts ${differ ? `DIFFER: engine ${differ.engine.counts} vs ${differ.base.counts}` : 'identical'}`;
      console.log(line);
      summary.push(line);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  console.log(['', 'summary:', ...summary].join('\n'));
}

const [mode, ...rest] = process.argv.slice(2);
const job =
  mode === '--engine'
    ? engineChild(rest[0], Number(rest[1]))
    : mode === '--baseline'
      ? baselineChild(rest.slice(1), Number(rest[0]))
      : main();
job.catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
