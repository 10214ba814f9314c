/**
 * Web console benchmark: the lists the console opens first, at the scale an operator's workspace reaches.
 *
 * API part — a local lakehouse with 10,000 tables in one schema and one table of 2,000 columns, and a store
 * holding 10,000 jobs; each list's first page as the console asks for it, timed through a real API server:
 *   tables   GET /api/catalogs/{c}/schemas/{s}/tables   (the explorer's tree opens a schema: every table)
 *   columns  GET /api/tables/{full_name}                 (the table page: columns, details, history)
 *   jobs     GET /api/jobs?limit=200&offset=0            (the jobs list's first page)
 * each against the same call at a small scale in the same run (10 tables, 20 columns, 200 jobs): the ratio says
 * how the call grows with the workspace. Medians of LAKEWARD_BENCH_ROUNDS (5) warm calls, plus the first (cold)
 * call, which reads the listing past the metadata cache.
 *
 * Browser part (bench/web-console-browser.ts) — when web/dist is built: Debian's chromium (Playwright) opens
 * each list page the console has through `lakeward web`'s server and times the first painted row, as a ratio to
 * the same API call alone (goal ≤ 2); and the initial JS of the build, gzipped.
 *
 *   npx tsx bench/web-console.ts
 *   LAKEWARD_BENCH_CONSOLE_TABLES=2000 LAKEWARD_BENCH_CONSOLE_JOBS=2000 npx tsx bench/web-console.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../api/server';
import { LocalWorkspace } from '../platform/local/workspace';
import { openStore, type Store } from '../store/db';
import { jobs } from '../store/schema';
import { testAppDeps } from '../test/api/deps';
import { browserPart, timedGet, type BrowserFigures } from './web-console-browser';

const env = (name: string, dflt: number) => Number(process.env[name] ?? dflt);
const TABLES = env('LAKEWARD_BENCH_CONSOLE_TABLES', 10_000);
const COLUMNS = env('LAKEWARD_BENCH_CONSOLE_COLUMNS', 2_000);
const JOBS = env('LAKEWARD_BENCH_CONSOLE_JOBS', 10_000);
const ROUNDS = Math.max(1, env('LAKEWARD_BENCH_ROUNDS', 5));
const SMALL = { tables: 10, columns: 20, jobs: 200 };
const JOBS_PAGE = '/api/jobs?limit=200&offset=0';

type Progress = (line: string) => void;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface CallFigures {
  list: string;
  path: string;
  items: number;
  coldMs: number;
  warmMs: number;
  smallWarmMs: number;
  /** Big ÷ small, warm medians. */
  ratio: number;
}

export interface WebConsoleBenchResult {
  calls: CallFigures[];
  browser: BrowserFigures | { skipped: string };
}

async function seedWorkspace(root: string, print: Progress): Promise<LocalWorkspace> {
  const ws = new LocalWorkspace({ root, user: 'bench' });
  await ws.createCatalog({ name: 'bench' });
  for (const schema of ['big', 'small', 'wide']) await ws.createSchema({ catalog: 'bench', name: schema });
  const cols = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `col_${i}`, type: 'string' }));
  for (let i = 0; i < TABLES; i++) {
    await ws.createTable({ ref: { catalog: 'bench', schema: 'big', name: `t${i}` }, columns: cols(2) });
    if ((i + 1) % 2000 === 0) print(`  ${i + 1} tables created`);
  }
  for (let i = 0; i < SMALL.tables; i++) {
    await ws.createTable({ ref: { catalog: 'bench', schema: 'small', name: `t${i}` }, columns: cols(SMALL.columns) });
  }
  await ws.createTable({ ref: { catalog: 'bench', schema: 'wide', name: 'cols' }, columns: cols(COLUMNS) });
  return ws;
}

/** Finished clone jobs as the kernel records them (row, request, summary, progress), in batches. */
async function seedJobs(store: Store, count: number): Promise<void> {
  const start = Date.parse('2026-01-01T00:00:00Z');
  for (let from = 0; from < count; from += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - from) }, (_, k) => {
      const i = from + k;
      const created = new Date(start + i * 60_000);
      const id = `clone-${created.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}-${(i % 65536).toString(16).padStart(4, '0')}`;
      return {
        jobId: id,
        jobType: 'clone',
        status: i % 10 === 0 ? 'failed' : 'completed',
        sourceCatalog: `src_${i % 50}`,
        destinationCatalog: `dst_${i}`,
        cloneType: 'DEEP',
        request: { source_catalog: `src_${i % 50}`, destination_catalog: `dst_${i}` },
        summary: { status: 'completed', tables_cloned: 12, tables_failed: 0, bytes_copied: 1 << 20 },
        progress: { completed: 12, total: 12, schemas: '3/3' },
        error: i % 10 === 0 ? 'sales.orders: [DELTA_FAILED] bench' : null,
        createdAt: created,
        startedAt: created,
        completedAt: new Date(created.getTime() + 30_000),
      };
    });
    await store.db.insert(jobs).values(rows);
  }
}

async function measure(big: string, small: string, list: string, bigPath: string, smallPath: string) {
  const cold = await timedGet(big, bigPath);
  await timedGet(small, smallPath);
  const warm: number[] = [];
  const smallWarm: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which scale goes first, so neither always runs on a warmer process.
    const order = r % 2 === 0 ? [true, false] : [false, true];
    for (const isBig of order) {
      const t = await timedGet(isBig ? big : small, isBig ? bigPath : smallPath);
      (isBig ? warm : smallWarm).push(t.ms);
    }
  }
  const warmMs = median(warm);
  const smallWarmMs = median(smallWarm);
  return { list, path: bigPath, items: cold.items, coldMs: cold.ms, warmMs, smallWarmMs, ratio: warmMs / smallWarmMs };
}

export async function run(print: Progress = () => undefined): Promise<WebConsoleBenchResult> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'lw-bench-console-'));
  const stores: Store[] = [];
  const servers: RunningServer[] = [];
  try {
    print(`seeding ${TABLES} tables, one of ${COLUMNS} columns, ${JOBS} jobs …`);
    const ws = await seedWorkspace(root, print);
    const [bigStore, smallStore] = [await openStore({}), await openStore({})];
    stores.push(bigStore, smallStore);
    await seedJobs(bigStore, JOBS);
    await seedJobs(smallStore, SMALL.jobs);
    for (const store of [bigStore, smallStore]) {
      servers.push(await startServer(testAppDeps({ store, open: async () => ws }), { host: '127.0.0.1', port: 0 }));
    }
    const [big, small] = servers.map((s) => s.url);
    const calls = [
      await measure(
        big,
        small,
        `tables (${TABLES})`,
        '/api/catalogs/bench/schemas/big/tables',
        '/api/catalogs/bench/schemas/small/tables',
      ),
      await measure(big, small, `columns (${COLUMNS})`, '/api/tables/bench.wide.cols', '/api/tables/bench.small.t0'),
      await measure(big, small, `jobs (${JOBS}, first page)`, JOBS_PAGE, JOBS_PAGE),
    ];
    for (const c of calls) print(`  ${c.list}: warm ${c.warmMs.toFixed(1)} ms, ratio ${c.ratio.toFixed(2)}`);
    const browser = await browserPart(big, print);
    return { calls, browser };
  } finally {
    for (const s of servers) await s.close(500);
    for (const s of stores) await s.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export function report(r: WebConsoleBenchResult): string {
  const lines = [`web console lists, API calls alone (median of ${ROUNDS} warm calls; ratio = at scale ÷ small):`];
  for (const c of r.calls) {
    lines.push(
      `  ${c.list.padEnd(24)} ${c.path}`,
      `    ${c.items} items  cold ${c.coldMs.toFixed(1)} ms  warm ${c.warmMs.toFixed(1)} ms  ` +
        `small ${c.smallWarmMs.toFixed(1)} ms  ratio ${c.ratio.toFixed(2)}`,
    );
  }
  if ('skipped' in r.browser) lines.push(`browser part skipped: ${r.browser.skipped}`);
  else lines.push(...r.browser.lines);
  return lines.join('\n');
}

if (require.main === module) {
  run((line) => console.log(line))
    .then((r) => console.log(report(r)))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
