import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import request from 'supertest';
import { createApp } from '../../api/app';
import { createCloneActivities } from '../../activities/clone';
import { cachedWorkspaces } from '../../activities/clone/workspace-cache';
import { createJobActivities } from '../../activities/jobs';
import { openWorkspace } from '../../platform';
import type { Store } from '../../store/db';
import { readRunLog } from '../../store/jobs/run-logs';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { faultyWorkspace } from '../clone/fixtures/faulty-workspace';
import { seedMiniCatalog } from '../clone/fixtures/mini-catalog';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';
import { connectTestEnv, uniqueTaskQueue } from '../helpers/temporal';
import { eventually } from './harness';
import { WORKER_TUNING } from '../../workers/worker-tuning';

/** The production path: the real clone workflow and activities behind the queue, over a local lakehouse. */
let env: TestWorkflowEnvironment;
let store: Store;
let root: string;
let worker: Worker;
let running: Promise<void>;
let closeWorkspaces: () => Promise<void>;
const taskQueue = uniqueTaskQueue('jobs-real');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  env = await connectTestEnv();
  store = await createTestStore();
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-jobs-real-'));
  const ws = await openWorkspace({ kind: 'local', root });
  await seedMiniCatalog(ws, 'prod');
  await seedMiniCatalog(ws, 'slowcat', { extraTables: 20 });
  await ws.close?.();
  // Table copies out of `slowcat` take 300 ms each, so a cancel lands mid-clone.
  const workspaces = cachedWorkspaces(async (ref) => {
    if (ref.kind !== 'local') throw new Error('local workspaces only');
    const slow = async (method: string, args: unknown[]) =>
      method === 'cloneTable' && JSON.stringify(args).includes('slowcat') ? sleep(300) : undefined;
    return faultyWorkspace(await openWorkspace({ kind: 'local', root: ref.root }), () => undefined, new Map(), slow);
  });
  closeWorkspaces = workspaces.closeAll;
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    ...WORKER_TUNING,
    workflowBundle: await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    }),
    activities: {
      ...createCloneActivities({ db: store.db, resolveWorkspace: workspaces.resolve }),
      ...createJobActivities({ store, client: env.client }),
    },
  });
  running = worker.run();
}, 120_000);
afterAll(async () => {
  await env.client.workflow
    .getHandle(jobQueueWorkflowId('clone', taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  worker?.shutdown();
  await running;
  await closeWorkspaces?.();
  await store?.close();
  await env?.teardown();
  rmSync(root, { recursive: true, force: true });
});

function app() {
  return createApp(
    testAppDeps({
      store,
      temporal: { client: env.client, connection: env.connection, address: env.connection.options.address },
      env: { LAKEWARD_TASK_QUEUE: taskQueue, LAKEWARD_WORKSPACE_ROOT: root },
    }),
  );
}
const events = async (jobId: string) => (await readRunLog(store.db, jobId)).map((r) => r.data ?? {});

test('a clone submitted to the API runs the real clone workflow to completion', async () => {
  const a = app();
  const id = (
    await request(a).post('/api/clone').send({ source_catalog: 'prod', destination_catalog: 'prod_copy' }).expect(200)
  ).body.job_id;
  const done = await eventually(async () => {
    const body = (await request(a).get(`/api/clone/${id}`).expect(200)).body;
    return ['completed', 'failed'].includes(body.status) && body.completed_at ? body : null;
  }, 60_000);
  expect(done.status).toBe('completed');
  expect(done.result.tables_cloned).toBeGreaterThan(0);
  expect(done.result.tables_failed).toBe(0);
  const ws = await openWorkspace({ kind: 'local', root });
  try {
    expect((await ws.listSchemas('prod_copy')).length).toBeGreaterThan(0);
  } finally {
    await ws.close?.();
  }
  const notes = (await request(a).get('/api/notifications?peek=true').expect(200)).body;
  expect(notes.items).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'success', job_id: id })]));
});

test('cancel mid-clone through the API stops new work within seconds', async () => {
  const a = app();
  const id = (
    await request(a)
      .post('/api/clone')
      .send({ source_catalog: 'slowcat', destination_catalog: 'slow_copy', parallel_tables: 2 })
      .expect(200)
  ).body.job_id;
  await eventually(async () => (await events(id)).filter((e) => e.event === 'table_finished').length >= 3, 60_000);
  const cancelledAt = Date.now();
  expect((await request(a).delete(`/api/clone/${id}`).expect(200)).body).toMatchObject({
    status: 'cancelling',
    job_id: id,
  });
  await eventually(
    async () => (await request(a).get(`/api/clone/${id}`).expect(200)).body.status === 'cancelled',
    15_000,
  );
  expect(Date.now() - cancelledAt).toBeLessThan(10_000);
  const startedAtEnd = (await events(id)).filter((e) => e.event === 'table_started').length;
  await sleep(1500);
  const after = await events(id);
  expect(after.filter((e) => e.event === 'table_started').length).toBe(startedAtEnd);
  expect(after.filter((e) => e.event === 'table_finished' && e.status === 'cloned').length).toBeLessThan(20);
  expect(after.at(-1)).toMatchObject({ event: 'status', status: 'cancelled', final: true });
});
