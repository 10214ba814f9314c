/**
 * The API under load: p50/p99 latency and throughput of GET /api/clone/{id}, GET /api/clone/jobs and
 * GET /api/health at a fixed request rate (autocannon, 200 requests/s for 30 s by default), first while idle,
 * then while a throttled clone (max_rps 1) and a deep clone are in progress. Each route is compared with a bare
 * Express route answering a constant JSON body of the same size, in the same process, measured right before
 * and right after it; the ratio is baseline / route (1 = as fast as the bare route; the goal is ≥ 0.5 at p99).
 * The load generator (autocannon) runs in a process of its own, as a client would: the API and the bare route
 * share this process, so its allocations and garbage collection are not theirs.
 *
 *   npx tsx bench/api-load.ts
 *   LAKEWARD_BENCH_LOAD_SECONDS=5 LAKEWARD_BENCH_LOAD_RPS=100 npx tsx bench/api-load.ts   # a short run
 *   LAKEWARD_BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/api-load.ts
 *   LAKEWARD_BENCH_GC_TRACE=1 …   # V8 prints every collection of this process (--trace-gc-nvp) while measuring
 */
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve as resolvePath } from 'node:path';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { constants as perf, monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { keepClonesBusy, submitClone, untilFinal, type BusyClones } from './api-load-clones';
import { startLoadStack, type LoadStack } from './api-load-stack';

function positiveEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return n;
}

const SECONDS = positiveEnv('LAKEWARD_BENCH_LOAD_SECONDS', 30);
const RPS = positiveEnv('LAKEWARD_BENCH_LOAD_RPS', 200);
/** Enough connections that a slow answer does not lower the offered rate (each carries one request at a time). */
const CONNECTIONS = 16;
const GOAL = 0.5;

const log = (line: string) => console.log(`[api-load ${new Date().toISOString().slice(11, 19)}] ${line}`);

interface Load {
  p50: number;
  p99: number;
  rps: number;
  failed: number;
  /** The longest the event loop of this process (API and baseline) was held during the run. */
  stallMs: number;
  /** The longest garbage collection pause in the run, and its kind (minor = young generation, major = full). */
  gcMs: number;
  gcKind: string;
  /** How many GC pauses of each kind the run had, and the heap in use at its end. */
  gcCounts: string;
}

const GC_KINDS: Record<number, string> = {
  [perf.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [perf.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [perf.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [perf.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/** Every GC pause of this process, as (end time, duration, kind) in ms on the performance clock. */
const gcPauses: { at: number; ms: number; kind: string }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    // A gc entry's `detail` ({ kind, flags }) is missing from @types/node's PerformanceEntry.
    const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0;
    gcPauses.push({ at: e.startTime + e.duration, ms: e.duration, kind: GC_KINDS[kind] ?? String(kind) });
  }
}).observe({ entryTypes: ['gc'] });

interface CannonResult {
  latency: { p50: number; p99: number };
  '2xx': number;
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** autocannon in a child process (its JSON result on stdout), so the load generator's heap is not this one's. */
function cannon(url: string, seconds: number): Promise<CannonResult> {
  const bin = resolvePath(__dirname, '../node_modules/autocannon/autocannon.js');
  const args = [bin, '-j', '-c', String(CONNECTIONS), '-R', String(RPS), '-d', String(seconds), url];
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`autocannon on ${url} failed: ${err.message} ${stderr}`));
      resolve(JSON.parse(stdout) as CannonResult);
    }),
  );
}

/**
 * autocannon's rate limit sends each connection's share of a second back to back from the second's start, and
 * its latency histogram adds the requests a stalled connection would have sent (coordinated omission), so one
 * pause of the event loop during a burst weighs on the p99 of the whole run: the run's longest stall and GC
 * pause are printed beside it.
 */
async function load(url: string, seconds = SECONDS): Promise<Load> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const from = performance.now();
  delay.enable();
  const r = await cannon(url, seconds);
  delay.disable();
  const pauses = gcPauses.filter((g) => g.at >= from);
  const longest = pauses.reduce((a, g) => (g.ms > a.ms ? g : a), { ms: 0, kind: '-' });
  const kinds = new Map<string, number>();
  for (const g of pauses) kinds.set(g.kind, (kinds.get(g.kind) ?? 0) + 1);
  const counts = [...kinds].map(([kind, n]) => `${n} ${kind}`).join(', ') || 'none';
  return {
    p50: r.latency.p50,
    p99: r.latency.p99,
    rps: r['2xx'] / r.duration,
    failed: r.non2xx + r.errors + r.timeouts,
    stallMs: delay.max / 1e6,
    gcMs: longest.ms,
    gcKind: longest.kind,
    gcCounts: `${counts}; heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`,
  };
}

interface Row {
  phase: string;
  route: string;
  bytes: number;
  route_: Load;
  base: Load;
  p50: number;
  p99: number;
  rps: number;
  bothRunning?: string;
}

const fmt = (l: Load) =>
  `p50 ${l.p50.toFixed(2)} ms, p99 ${l.p99.toFixed(2)} ms, ${l.rps.toFixed(0)} req/s, longest stall ${l.stallMs.toFixed(0)} ms (GC ${l.gcMs.toFixed(0)} ms ${l.gcKind}; GCs ${l.gcCounts})`;
/** Latencies under 0.5 ms are at the timer's resolution: compare from there, so 0 ms never divides. */
const ratio = (base: number, route: number) => Math.max(base, 0.5) / Math.max(route, 0.5);

/** Baseline (same body size), the route, baseline again; the ratios use the mean of the two baselines. */
async function measure(stack: LoadStack, phase: string, route: string, path: string, busy?: BusyClones) {
  const url = `${stack.api}${path}`;
  const first = await fetch(url);
  const bytes = Buffer.byteLength(await first.text());
  if (!first.ok) throw new Error(`${route} answered ${first.status} before the run`);
  stack.setBaselineBytes(bytes);
  const before = await load(stack.baseline);
  const sampling = busy?.sample();
  const measured = await load(url);
  const both = sampling?.stop();
  const after = await load(stack.baseline);
  const base: Load = {
    p50: (before.p50 + after.p50) / 2,
    p99: (before.p99 + after.p99) / 2,
    rps: (before.rps + after.rps) / 2,
    failed: before.failed + after.failed,
    stallMs: Math.max(before.stallMs, after.stallMs),
    ...(before.gcMs >= after.gcMs
      ? { gcMs: before.gcMs, gcKind: before.gcKind }
      : { gcMs: after.gcMs, gcKind: after.gcKind }),
    gcCounts: `${before.gcCounts} | ${after.gcCounts}`,
  };
  const row: Row = {
    phase,
    route,
    bytes,
    route_: measured,
    base,
    p50: ratio(base.p50, measured.p50),
    p99: ratio(base.p99, measured.p99),
    rps: measured.rps / base.rps,
    ...(both ? { bothRunning: `${Math.round((100 * both.both) / Math.max(1, both.samples))}%` } : {}),
  };
  log(
    `${phase} ${route} (${bytes} B): ${fmt(measured)}${measured.failed ? `, ${measured.failed} failed` : ''}` +
      ` | baseline ${fmt(base)} | ratio p50 ${row.p50.toFixed(2)}, p99 ${row.p99.toFixed(2)},` +
      ` throughput ${row.rps.toFixed(2)}${row.bothRunning ? ` | both clones running ${row.bothRunning}` : ''}` +
      ` | load average ${loadavg()[0].toFixed(2)}`,
  );
  return row;
}

async function phase(stack: LoadStack, name: string, jobId: () => string, busy?: BusyClones): Promise<Row[]> {
  const rows: Row[] = [];
  rows.push(await measure(stack, name, 'GET /api/clone/{id}', `/api/clone/${jobId()}`, busy));
  rows.push(await measure(stack, name, 'GET /api/clone/jobs', '/api/clone/jobs', busy));
  rows.push(await measure(stack, name, 'GET /api/health', '/api/health', busy));
  return rows;
}

function report(rows: Row[], store: string): void {
  console.log(
    `\nAPI under load: ${RPS} requests/s for ${SECONDS} s per run, ${CONNECTIONS} connections, ${store} store`,
  );
  console.log('ratio = bare route / API route (latency), API / bare (throughput); goal p99 ratio ≥ 0.5');
  console.log(
    'stall = longest event-loop stall of the run in ms (base st: of either baseline run); gc = its longest GC pause',
  );
  console.log(`this process's young generation: ${youngGeneration()}\n`);
  console.log(
    `${'phase'.padEnd(6)} ${'route'.padEnd(21)} ${'bytes'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}` +
      ` ${'req/s'.padStart(6)} ${'base p99'.padStart(8)} ${'p50 x'.padStart(6)} ${'p99 x'.padStart(6)} ${'rps x'.padStart(6)}` +
      ` ${'stall'.padStart(6)} ${'base st'.padStart(7)} ${'gc'.padStart(14)}`,
  );
  for (const r of rows) {
    console.log(
      `${r.phase.padEnd(6)} ${r.route.padEnd(21)} ${String(r.bytes).padStart(6)} ${r.route_.p50.toFixed(2).padStart(7)}` +
        ` ${r.route_.p99.toFixed(2).padStart(7)} ${r.route_.rps.toFixed(0).padStart(6)} ${r.base.p99.toFixed(2).padStart(8)}` +
        ` ${r.p50.toFixed(2).padStart(6)} ${r.p99.toFixed(2).padStart(6)} ${r.rps.toFixed(2).padStart(6)}` +
        ` ${r.route_.stallMs.toFixed(0).padStart(6)} ${r.base.stallMs.toFixed(0).padStart(7)}` +
        ` ${`${r.route_.gcMs.toFixed(0)} ${r.route_.gcKind}`.padStart(14)}`,
    );
  }
  const worst = Math.min(...rows.map((r) => r.p99));
  console.log(`\nworst p99 ratio ${worst.toFixed(2)}: goal ${worst >= GOAL ? 'met' : 'NOT met'}`);
}

/** The young generation's size now and any flags given to this process's node (e.g. --max-semi-space-size). */
function youngGeneration(): string {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  const flags = process.execArgv.filter((a) => a.startsWith('--') && !['--require', '--import'].includes(a));
  return `new space ${((space?.space_size ?? 0) / 2 ** 20).toFixed(1)} MB, flags ${flags.join(' ') || '(none)'}${process.env.NODE_OPTIONS ? `, NODE_OPTIONS ${process.env.NODE_OPTIONS}` : ''}`;
}

async function main(): Promise<void> {
  log(`${RPS} requests/s for ${SECONDS} s per run (LAKEWARD_BENCH_LOAD_RPS, LAKEWARD_BENCH_LOAD_SECONDS)`);
  const stack = await startLoadStack(log);
  let busy: BusyClones | undefined;
  try {
    const t0 = Date.now();
    const idleJob = await submitClone(stack.api, {
      source_catalog: stack.source,
      destination_catalog: `${stack.source}_idle`,
      clone_type: 'DEEP',
    });
    const idleStatus = await untilFinal(stack.api, idleJob, 600_000);
    log(
      `idle: deep clone ${idleJob} ended ${idleStatus} in ${((Date.now() - t0) / 1000).toFixed(1)} s (warms the worker)`,
    );
    if (process.env.LAKEWARD_BENCH_GC_TRACE === '1') {
      // V8 prints one line per collection from here on (its phases, bytes survived and promoted).
      setFlagsFromString('--trace-gc-nvp');
    }
    log('warming up the load generator and both servers (untimed)');
    await load(stack.baseline, 2);
    await load(`${stack.api}/api/clone/${idleJob}`, 2);

    const rows = await phase(stack, 'idle', () => idleJob);
    busy = await keepClonesBusy(stack.api, stack.source, log);
    rows.push(...(await phase(stack, 'busy', busy.deepId, busy)));
    const n = busy.started();
    log(`busy phase queued ${n.deep} deep and ${n.throttled} throttled clones; cancelling what still runs`);
    await busy.stop();
    busy = undefined;
    report(rows, stack.store.driver);
  } finally {
    await busy?.stop().catch(() => undefined);
    await stack.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
