/**
 * Workbench benchmark, two figures each as a ratio against a baseline measured in the same run:
 *
 * 1. A workbench statement's first chunk on a 10-million-row local Delta table — `POST /api/sql/statements`
 *    through a real API server (read-only check, access policies, statement row in the store, chunk 0 in the
 *    answer; the result's write, which the answer does not wait for, is awaited untimed before the next
 *    measurement) — against the same query run directly on DuckDB over the table's Parquet files,
 *    rows read into JS. Ratio = statement time ÷ DuckDB time (goal ≤ 1.5), for a filtered scan that stops at
 *    row_limit and for a full-scan aggregation; with the process's peak RSS.
 * 2. The logs generator (`writeLogFiles` into a folder, as the generate job runs it per chunk on a local volume) in
 *    lines/s against writing the same bytes (the generator's own files, read back) with plain fs write streams in
 *    64 KiB writes, for each of the four log types. Ratio = generator lines/s ÷ plain lines/s (goal ≥ 0.5), the median of the rounds' ratios with
 *    their range; each side writes into a new folder removed (untimed) after it, and one warm-up of each side
 *    runs first. Each side's CPU time (the process's, every thread) and the load average are printed beside.
 *
 * Rounds alternate which side goes first; figures are medians of LAKEWARD_BENCH_ROUNDS (3) rounds. The machine may
 * be shared: use 5 or more rounds there, and read the ranges.
 *
 *   npx tsx bench/workbench.ts
 *   LAKEWARD_BENCH_WB_ROWS=1000000 LAKEWARD_BENCH_LOG_FILES=5 npx tsx bench/workbench.ts
 *   LAKEWARD_BENCH_ONLY=logs LAKEWARD_BENCH_ROUNDS=7 LAKEWARD_BENCH_LOG_TYPES=nginx_access npx tsx bench/workbench.ts
 *   LAKEWARD_BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/workbench.ts  # Postgres store
 */
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { writeLogFiles } from '../activities/generators/logs-writer';
import { startServer } from '../api/server';
import { duckString, withDuck } from '../platform/local/duck';
import { LocalWorkspace } from '../platform/local/workspace';
import { openStore } from '../store/db';
import { getStatement } from '../store/workbench/statements';
import { testAppDeps } from '../test/api/deps';

const ROWS = Number(process.env.LAKEWARD_BENCH_WB_ROWS ?? 10_000_000);
const ROUNDS = Number(process.env.LAKEWARD_BENCH_ROUNDS ?? 3);
const LOG_FILES = Number(process.env.LAKEWARD_BENCH_LOG_FILES ?? 10);
/** Log types to measure (comma-separated; default all four). */
const LOG_TYPES = (process.env.LAKEWARD_BENCH_LOG_TYPES ?? 'nginx_access,app_json,syslog,otel_trace').split(',');
const LINES_PER_FILE = 100_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = async (fn: () => Promise<unknown>) => {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

const QUERIES = [
  {
    name: 'filtered scan, row_limit 10,000',
    lakeward: "SELECT id, g, s FROM bench.wb.big WHERE s LIKE '%77'",
    duck: (from: string) => `SELECT id, g, s FROM ${from} WHERE s LIKE '%77' LIMIT 10000`,
  },
  {
    name: 'aggregation over every row',
    lakeward: 'SELECT g, count(*) AS n, sum(id) AS total FROM bench.wb.big GROUP BY g ORDER BY g',
    duck: (from: string) => `SELECT g, count(*) AS n, sum(id) AS total FROM ${from} GROUP BY g ORDER BY g`,
  },
];

async function statements(): Promise<string[]> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'lw-bench-wb-'));
  // The store the API keeps statements and results in: PGlite in this process, or a Postgres server.
  const store = await openStore({ databaseUrl: process.env.LAKEWARD_BENCH_DATABASE_URL ?? null });
  const out: string[] = [];
  try {
    const ws = new LocalWorkspace({ root, user: 'lakeward' });
    await ws.createCatalog({ name: 'bench' });
    await ws.createSchema({ catalog: 'bench', name: 'wb' });
    const built = await ms(() =>
      ws.createTableAs({
        ref: { catalog: 'bench', schema: 'wb', name: 'big' },
        query: `SELECT id, id % 100 AS g, CAST(id AS STRING) AS s FROM range(${ROWS}) AS t(id)`,
      }),
    );
    out.push(`table: ${ROWS.toLocaleString('en')} rows written in ${(built / 1000).toFixed(1)} s`);
    const detail = await ws.tableDetail({ catalog: 'bench', schema: 'wb', name: 'big' });
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory() && e.name !== '_delta_log') walk(path.join(d, e.name));
        else if (e.name.endsWith('.parquet')) files.push(path.join(d, e.name));
      }
    };
    walk((detail.location ?? '').replace(/^file:\/\//, ''));
    const from = `read_parquet([${files.map(duckString).join(', ')}])`;
    const deps = testAppDeps({ store, flags: { dataDir: root }, open: async () => ws });
    const server = await startServer(deps, { host: '127.0.0.1', port: 0 });
    const client = httpClient();
    try {
      for (const q of QUERIES) {
        let lastId = '';
        // The answer does not wait for the result's write; the next measurement does (untimed), so the write
        // never runs inside another measurement.
        const written = async () => {
          for (let i = 0; i < 3000; i++) {
            if ((await getStatement(store.db, lastId))?.state !== 'RUNNING') return;
            await new Promise((r) => setTimeout(r, 10));
          }
          throw new Error(`statement ${lastId}: its end was never written`);
        };
        // Timed by the client's process: from sending the request to the parsed answer.
        const viaApi = async () => {
          const answer = await client.ask({
            url: `${server.url}/api/sql/statements`,
            method: 'POST',
            body: { statement: q.lakeward, wait_timeout: '50s' },
          });
          const body = answer.body as {
            statement_id: string;
            status: { state: string };
            result?: { data_array: unknown[] };
          };
          lastId = body.statement_id;
          if (body.status.state !== 'SUCCEEDED' || !body.result?.data_array.length)
            throw new Error(`statement ended ${JSON.stringify(body.status)}`);
          return answer.ms;
        };
        const direct = () => withDuck(async (conn) => (await conn.runAndReadAll(q.duck(from))).getRows());
        await viaApi();
        await written();
        await direct();
        const pairs: [number, number][] = [];
        for (let r = 0; r < ROUNDS; r++) {
          const a = r % 2 === 0 ? await viaApi() : 0;
          if (r % 2 === 0) await written();
          const b = await ms(direct);
          const c = r % 2 === 0 ? a : await viaApi();
          if (r % 2 !== 0) await written();
          pairs.push([c, b]);
        }
        const api = median(pairs.map((p) => p[0]));
        const duck = median(pairs.map((p) => p[1]));
        out.push(
          `${q.name}: statement first chunk ${api.toFixed(0)} ms, DuckDB directly ${duck.toFixed(0)} ms, ` +
            `ratio ${(api / duck).toFixed(2)} (goal ≤ 1.5); rounds ${pairs.map(([x, y]) => `${x.toFixed(0)}/${y.toFixed(0)}`).join(', ')}`,
        );
      }
    } finally {
      client.close();
      await server.close(500);
    }
    out.push(`store: ${store.driver}; peak RSS of the bench process: ${peakRssMb()} MB`);
    await ws.close();
  } finally {
    await store.close();
    rmSync(root, { recursive: true, force: true });
  }
  return out;
}

/** The API's client in a process of its own (`http-client-child.ts`), as a user's would be; one request at a time. */
function httpClient() {
  const child = fork(path.join(__dirname, 'http-client-child.ts'), [], { execArgv: ['--import', 'tsx'] });
  return {
    ask(request: {
      url: string;
      method: string;
      body?: unknown;
    }): Promise<{ ms: number; status: number; body: unknown }> {
      return new Promise((resolve, reject) => {
        child.once('message', (m: { ms: number; status: number; body: unknown } | { error: string }) =>
          'error' in m ? reject(new Error(m.error)) : resolve(m),
        );
        child.send(request);
      });
    },
    close: () => child.kill(),
  };
}

/** Per-round figures: each round times both sides back to back, alternating which goes first. */
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

async function logsOfType(dir: string, type: string): Promise<string> {
  const lines = LOG_FILES * LINES_PER_FILE;
  const generate = async (target: string) => {
    await writeLogFiles({
      type,
      seed: 7,
      asOf: '2026-01-01',
      daysBack: 7,
      linesPerFile: LINES_PER_FILE,
      files: LOG_FILES,
      dir: target,
    });
  };
  // The generator's own files (a warm-up run) are the bytes the baseline writes.
  const first = path.join(dir, `${type}-first`);
  await generate(first);
  const bytes = readdirSync(first)
    .sort()
    .map((f) => readFileSync(path.join(first, f)));
  rmSync(first, { recursive: true, force: true });
  const plain = async (target: string) => {
    mkdirSync(target, { recursive: true });
    for (const [i, data] of bytes.entries()) {
      const s = createWriteStream(path.join(target, `f${i}.log`));
      for (let o = 0; o < data.length; o += 64 * 1024) {
        if (!s.write(data.subarray(o, o + 64 * 1024))) await once(s, 'drain');
      }
      s.end();
      await once(s, 'finish');
    }
  };
  // Each side writes into a new folder, removed (untimed) right after, so neither inherits the other's dirty pages.
  // The process's CPU time (every thread) is kept too: on a busy machine it shows the work apart from the waiting.
  let n = 0;
  const timed = async (fn: (target: string) => Promise<void>) => {
    const target = path.join(dir, `${type}-${n++}`);
    const cpu = process.cpuUsage();
    const wall = await ms(() => fn(target));
    const used = process.cpuUsage(cpu);
    rmSync(target, { recursive: true, force: true });
    return { wall, cpu: (used.user + used.system) / 1000 };
  };
  await timed(plain);
  const rounds: { gen: number; base: number; genCpu: number; baseCpu: number }[] = [];
  const round = (g: { wall: number; cpu: number }, b: { wall: number; cpu: number }) => {
    rounds.push({ gen: g.wall, base: b.wall, genCpu: g.cpu, baseCpu: b.cpu });
    console.log(
      `  ${type} round ${rounds.length}/${ROUNDS}: generator ${g.wall.toFixed(0)} ms (CPU ${g.cpu.toFixed(0)}), ` +
        `plain ${b.wall.toFixed(0)} ms (CPU ${b.cpu.toFixed(0)})`,
    );
  };
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      const g = await timed(generate);
      round(g, await timed(plain));
    } else {
      const b = await timed(plain);
      round(await timed(generate), b);
    }
  }
  const ratios = rounds.map((r) => r.base / r.gen);
  const genRate = lines / (median(rounds.map((r) => r.gen)) / 1000);
  const baseRate = lines / (median(rounds.map((r) => r.base)) / 1000);
  const mb = bytes.reduce((s, b) => s + b.length, 0) / 1024 / 1024;
  return (
    `logs generator (${type}, ${LOG_FILES} files × ${LINES_PER_FILE.toLocaleString('en')} lines, ${mb.toFixed(0)} MB): ` +
    `${Math.round(genRate).toLocaleString('en')} lines/s; plain fs streams ${Math.round(baseRate).toLocaleString('en')} lines/s; ` +
    `ratio ${median(ratios).toFixed(3)} (goal ≥ 0.5; median of ${ROUNDS} rounds, range ${spread(ratios)}); ` +
    `CPU ${median(rounds.map((r) => r.genCpu)).toFixed(0)} vs ${median(rounds.map((r) => r.baseCpu)).toFixed(0)} ms`
  );
}

async function logs(print: (line: string) => void): Promise<string[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lw-bench-logs-'));
  const load = () => os.loadavg()[0].toFixed(1);
  const out: string[] = [`logs: load average ${load()} at the start`];
  print(out[0]);
  try {
    for (const type of LOG_TYPES) {
      const line = await logsOfType(dir, type);
      print(line);
      out.push(line);
    }
    out.push(`logs: load average ${load()} at the end`);
    print(out[out.length - 1]);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(print: (line: string) => void = console.log): Promise<string[]> {
  const lines: string[] = [];
  const only = process.env.LAKEWARD_BENCH_ONLY;
  if (only !== 'logs') {
    for (const line of await statements()) {
      print(line);
      lines.push(line);
    }
  }
  // Log lines print as each type ends (the four take a while).
  if (only !== 'statements') lines.push(...(await logs(print)));
  return lines;
}

export function report(lines: string[]): string {
  return ['', 'workbench:', ...lines.map((l) => `  ${l}`)].join('\n');
}

if (require.main === module) {
  run().then(
    (lines) => console.log(report(lines)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
