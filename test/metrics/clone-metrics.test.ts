import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { seedMiniCatalog } from '../clone/fixtures/mini-catalog';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { sampleValue } from './prom-text';

/**
 * The real stack as production runs it: `lakeward serve` (API + worker in one process, PGlite store in its own
 * data folder) against the test Temporal server, with the API key on, its worker metrics server and the Temporal
 * SDK's exporter on free ports. One clone of a small local catalog, then both /metrics endpoints are read.
 */
const KEY = 'clone-metrics-key';
const ROOT_DIR = path.resolve(__dirname, '../..');
let h: Harness;
let child: ChildProcess | undefined;
let output = '';
let api: string;
let workerMetrics: string;
let sourceTables = 0;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const get = (url: string, key?: string) =>
  fetch(url, { headers: key ? { Authorization: `Bearer ${key}` } : {}, signal: AbortSignal.timeout(10_000) });

beforeAll(async () => {
  h = await createHarness('metrics');
  const root = h.newRoot();
  const ws = h.open(root);
  await seedMiniCatalog(ws, 'prod', { extraTables: 3 });
  for (const schema of await ws.listSchemas('prod')) sourceTables += (await ws.listTables('prod', schema.name)).length;
  await ws.close?.();
  const [apiPort, metricsPort, sdkPort] = [await freePort(), await freePort(), await freePort()];
  api = `http://127.0.0.1:${apiPort}`;
  workerMetrics = `http://127.0.0.1:${metricsPort}/metrics`;
  const { DATABASE_URL: _shared, ...env } = process.env; // the child keeps its own PGlite store
  child = spawn(path.join(ROOT_DIR, 'bin/lakeward'), ['serve'], {
    cwd: ROOT_DIR,
    env: {
      ...env,
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
      LAKEWARD_DATA_DIR: mkdtempSync(path.join(h.newRoot(), 'data-')),
      LAKEWARD_WORKSPACE_ROOT: root,
      LAKEWARD_TASK_QUEUE: h.newTaskQueue(),
      LAKEWARD_PORT: String(apiPort),
      LAKEWARD_API_KEY: KEY,
      LAKEWARD_WORKER_METRICS_PORT: String(metricsPort),
      LAKEWARD_TEMPORAL_METRICS_PORT: String(sdkPort),
      LAKEWARD_LOG_LEVEL: 'warn',
      LAKEWARD_LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  await eventually(
    async () => {
      if (child!.exitCode !== null) throw new Error(`lakeward serve exited (${child!.exitCode}): ${output}`);
      const apiUp = (await get(`${api}/api/health`).catch(() => null))?.ok ?? false;
      return apiUp && ((await get(workerMetrics).catch(() => null))?.ok ?? false);
    },
    { what: 'lakeward serve answering on its API and worker metrics ports', timeoutMs: 120_000, intervalMs: 500 },
  );
}, 180_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 20_000)))]);
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await h?.teardown();
}, 60_000);

test('after a clone, /metrics on the API and on the worker show its counts with the right labels', async () => {
  const submitted = await fetch(`${api}/api/clone`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    // Two table batches per schema: the tables go through cloneTables (a one-batch schema ends in cloneTablesAndFinish).
    body: JSON.stringify({ source_catalog: 'prod', destination_catalog: 'prod_metrics_copy', parallel_tables: 2 }),
  });
  expect(submitted.status).toBe(200);
  const jobId = ((await submitted.json()) as { job_id: string }).job_id;
  const job = await eventually(
    async () => {
      const body = (await (await get(`${api}/api/clone/${jobId}`, KEY)).json()) as Record<string, unknown>;
      return body.completed_at ? body : null;
    },
    { what: `clone ${jobId} to end`, timeoutMs: 90_000, intervalMs: 250 },
  );
  expect(job).toMatchObject({ status: 'completed', result: { tables_cloned: sourceTables, tables_failed: 0 } });

  // The worker's endpoint: the job kernel, the activity interceptor, the clone totals and the SDK's own series.
  const worker = await (await get(workerMetrics)).text();
  expect(sampleValue(worker, 'lakeward_jobs_started_total', { job_type: 'clone' })).toBe(1);
  expect(sampleValue(worker, 'lakeward_jobs_ended_total', { job_type: 'clone', status: 'completed' })).toBe(1);
  expect(sampleValue(worker, 'lakeward_job_queue_wait_seconds_count', { job_type: 'clone' })).toBe(1);
  expect(sampleValue(worker, 'lakeward_clone_tables_total', { status: 'cloned' })).toBe(sourceTables);
  expect(sampleValue(worker, 'lakeward_clone_tables_total', { status: 'failed' })).toBe(0);
  expect(sampleValue(worker, 'lakeward_clone_bytes_copied_total')).toBeGreaterThan(0);
  expect(
    sampleValue(worker, 'lakeward_activity_attempts_total', { activity_type: 'cloneTables' }),
  ).toBeGreaterThanOrEqual(1);
  expect(sampleValue(worker, 'lakeward_activity_attempts_total', { activity_type: 'recordJobEnd' })).toBe(1);
  expect(sampleValue(worker, 'lakeward_activity_retries_total', { activity_type: 'cloneTables' })).toBe(0);
  expect(
    sampleValue(worker, 'lakeward_warehouse_statements_total', { adapter: 'local', outcome: 'ok' }),
  ).toBeGreaterThan(0);
  expect(sampleValue(worker, 'temporal_worker_task_slots_available')).toBeGreaterThan(0);
  expect(worker).toMatch(/^temporal_activity_execution_latency_seconds_count\{.*activity_type="cloneTables"/m);

  // The API's endpoint: behind the key; the job's requests by route template; the queue depth from the store.
  expect((await get(`${api}/metrics`)).status).toBe(401);
  const apiText = await (await get(`${api}/metrics`, KEY)).text();
  expect(
    sampleValue(apiText, 'lakeward_http_requests_total', { method: 'POST', route: '/api/clone', status: '200' }),
  ).toBe(1);
  expect(
    sampleValue(apiText, 'lakeward_http_requests_total', { method: 'GET', route: '/api/clone/:jobId', status: '200' }),
  ).toBeGreaterThanOrEqual(1);
  expect(apiText).not.toContain(jobId);
  expect(apiText).toMatch(/^lakeward_job_queue_depth\{job_type="clone"\} 0$/m);
}, 150_000);
