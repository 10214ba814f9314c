import type { AddressInfo } from 'node:net';
import { createApp } from '../api/app';
import { getJob } from '../store/jobs/jobs';
import { jobQueueWorkflowId } from '../workflows/jobs/definitions';
import { testAppDeps } from '../test/api/deps';
import { createHarness } from '../test/helpers/harness';
import { eventually } from '../test/helpers/eventually';
import type { BenchEnv } from './clone-bench-env';

/**
 * A job's fixed cost: a one-table DEEP clone from POST /api/clone (the real API app on a real port, the job
 * kernel's queue workflow, the real worker wiring) until the job's row has its completed_at. The table is tiny,
 * so what is measured is the engine's own cost: admission, workflow start, planning, the copy's round trip,
 * completion and the job-end record. One untimed job warms the worker; the median of `runs` jobs is reported.
 */
export async function fixedCostBench(b: BenchEnv, runs: number, progress: (line: string) => void) {
  // The harness (test/helpers/harness) wires the worker exactly as workers/ does; it connects to this server.
  process.env.TEMPORAL_TEST_ADDRESS = b.env.connection.options.address;
  const databaseUrl = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL; // the store is PGlite, as in the other parts of this bench
  const h = await createHarness('bench-fixed');
  if (databaseUrl !== undefined) process.env.DATABASE_URL = databaseUrl;
  const root = h.newRoot();
  const ws = h.open(root);
  await ws.createCatalog({ name: 'one' });
  await ws.createSchema({ catalog: 'one', name: 's' });
  await ws.createTableAs({
    ref: { catalog: 'one', schema: 's', name: 't' },
    query: 'SELECT range AS k FROM range(1000)',
  });
  const deps = testAppDeps({
    store: h.store,
    temporal: { client: h.env.client, connection: h.env.connection, address: b.env.connection.options.address },
    env: { LAKEWARD_TASK_QUEUE: h.taskQueue, LAKEWARD_WORKSPACE_ROOT: root, LAKEWARD_DATA_DIR: h.config.data_dir },
  });
  const server = createApp(deps).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/clone`;
  const ms: number[] = [];
  try {
    await h.withWorker(async () => {
      for (let i = 0; i <= runs; i++) {
        const body = { source_catalog: 'one', destination_catalog: `one_copy_${i}`, clone_type: 'DEEP' };
        const start = Date.now();
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (res.status !== 200) throw new Error(`POST /api/clone answered ${res.status}: ${await res.text()}`);
        const jobId = ((await res.json()) as { job_id: string }).job_id;
        const row = await eventually(
          async () => {
            const job = await getJob(h.store.db, jobId);
            return job?.completedAt ? job : undefined;
          },
          { what: `job ${jobId}'s completed_at`, timeoutMs: 60_000, intervalMs: 5 },
        );
        if (row.status !== 'completed') throw new Error(`job ${jobId} ended ${row.status}: ${row.error}`);
        const took = row.completedAt!.getTime() - start;
        if (i === 0) {
          progress(`fixed cost: warm-up job ${took} ms (not counted)`);
          continue;
        }
        ms.push(took);
        progress(`fixed cost: job ${i} of ${runs}: ${took} ms`);
      }
      await h.env.client.workflow
        .getHandle(jobQueueWorkflowId('clone', h.taskQueue))
        .terminate('bench over')
        .catch(() => undefined);
    });
  } finally {
    server.close();
    await deps.workspaces.close();
    await h.teardown();
  }
  return { fixedCostMs: ms };
}
