/**
 * One shape of the history part (bench/history-part.ts) in a process of its own: a warmed worker clones a
 * synthetic catalog whose clone is a no-op; prints progress lines, then `history-result <json>`.
 */
import { jobHistoryStats } from '../test/clone/history-size';
import { syntheticWorkspace } from '../test/clone/fixtures/synthetic-workspace';
import { createTestDatabase } from '../test/helpers/db';
import { createBenchEnv } from './clone-bench-env';
import { HISTORY_RESULT_PREFIX, type HistoryFigure } from './history-part';

async function main(): Promise<void> {
  const { shape, schemas, perSchema } = JSON.parse(process.env.LAKEWARD_BENCH_SHAPE ?? '{}') as {
    shape: string;
    schemas: number;
    perSchema: number;
  };
  // As in production, the worker's store is a Postgres server when there is one (a fresh database on the
  // DATABASE_URL server, or LAKEWARD_BENCH_DATABASE_URL); else PGlite, inside this process and its RSS.
  const database =
    !process.env.LAKEWARD_BENCH_DATABASE_URL && process.env.DATABASE_URL ? await createTestDatabase() : null;
  if (database) process.env.LAKEWARD_BENCH_DATABASE_URL = database.url;
  const store = process.env.LAKEWARD_BENCH_DATABASE_URL ? 'Postgres' : 'PGlite in the worker process';
  const b = await createBenchEnv();
  try {
    const root = b.tmp('lw-bench-history-');
    const rss = sampleRss();
    const r = await b.clone(
      root,
      { source_catalog: 'big', destination_catalog: 'big_copy', max_workers: 8, parallel_tables: 8 },
      { wrap: (ws) => syntheticWorkspace(ws, { catalog: 'big', schemas, tablesPerSchema: perSchema }) },
    );
    const peakRssBytes = rss.stop();
    const stats = await jobHistoryStats(b.env.client, r.jobId, r.firstRunId);
    const figure: HistoryFigure = {
      shape,
      tables: schemas * perSchema,
      maxHistoryLength: Math.max(stats.parentMax, stats.childMax),
      parentRuns: stats.parentRuns,
      childRuns: stats.childRuns,
      seconds: r.seconds,
      peakRssBytes,
      store,
    };
    process.stdout.write(`${HISTORY_RESULT_PREFIX}${JSON.stringify(figure)}\n`);
  } finally {
    await b.close();
    await database?.drop();
  }
}

/** Samples this process's RSS every 100 ms while the job runs; returns the peak. */
function sampleRss(): { stop(): number } {
  let peak = process.memoryUsage.rss();
  let last = Date.now();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
    if (Date.now() - last >= 30_000) {
      last = Date.now();
      process.stdout.write(`history worker: RSS ${(process.memoryUsage.rss() / 1024 ** 2).toFixed(0)} MiB so far\n`);
    }
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
