import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import request from 'supertest';
import WebSocket from 'ws';
import { createJobActivities } from '../../activities/jobs';
import { cloneJobType } from '../../api/clone/job-type';
import { newJobId } from '../../api/jobs/job-id';
import { submitJob } from '../../api/jobs/service';
import { startServer, type RunningServer } from '../../api/server';
import { JobEventSchema } from '../../schemas/jobs';
import { auditForJob } from '../../store/audit/repo';
import type { Store } from '../../store/db';
import { recentNotifications } from '../../store/notifications/repo';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { WORKER_TUNING } from '../../workers/worker-tuning';
import { createTestStore } from '../helpers/db';
import { connectTestEnv, uniqueTaskQueue } from '../helpers/temporal';
import { jobAppDeps } from './api-app';
import { createEchoActivities } from './fixtures/echo-activities';
import { echoJobType } from './fixtures/echo-job';
import { eventually } from './harness';

let env: TestWorkflowEnvironment;
let store: Store;
let worker: Worker;
let running: Promise<void>;
let server: RunningServer;
const taskQueue = uniqueTaskQueue('echo');
const deps = () => ({ ...jobAppDeps(env, store, taskQueue), jobTypes: [cloneJobType, echoJobType] });
let appDeps: ReturnType<typeof deps>;

beforeAll(async () => {
  env = await connectTestEnv();
  store = await createTestStore();
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    ...WORKER_TUNING,
    workflowBundle: await bundleWorkflowCode({ workflowsPath: require.resolve('./fixtures/echo-workflows') }),
    activities: { ...createJobActivities({ store, client: env.client }), ...createEchoActivities() },
  });
  running = worker.run();
  appDeps = deps();
  server = await startServer(appDeps, { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await env.client.workflow
    .getHandle(jobQueueWorkflowId('echo', taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await server?.close(500);
  worker?.shutdown();
  await running;
  await store?.close();
  await env?.teardown();
});

const submit = (steps: number, stepMs: number) => {
  const jobId = newJobId('echo');
  return submitJob(appDeps, echoJobType, { jobId, input: { jobId, steps, stepMs }, createdAt: new Date() });
};
const job = async (id: string) => (await request(server.url).get(`/api/jobs/${id}`).expect(200)).body;

function collectEvents(jobId: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/jobs/ws/${jobId}`);
    const events: Record<string, unknown>[] = [];
    ws.on('message', (data) => events.push(JSON.parse(data.toString()) as Record<string, unknown>));
    ws.on('close', () => resolve(events));
    ws.on('error', reject);
  });
}

test('a second job type gets queue limits, progress over the WebSocket, cancel, notification and audit from the kernel', async () => {
  const first = await submit(50, 500);
  expect(first).toMatchObject({ status: 'queued', queue_position: 0 });
  const second = await submit(3, 100);
  expect(second.queue_position).toBe(1);
  // max_queue_size 1 of this type: one more waiting job is refused, and leaves no row behind.
  await expect(submit(1, 1)).rejects.toMatchObject({ status: 429, code: 'QUEUE_FULL' });
  expect((await request(server.url).get('/api/jobs?type=echo').expect(200)).body).toHaveLength(2);

  await eventually(async () => (await job(first.job_id)).progress.completed >= 1, 20_000);
  expect(await job(first.job_id)).toMatchObject({ job_type: 'echo', status: 'running', progress: { total: 50 } });
  expect(await job(second.job_id)).toMatchObject({ status: 'queued', queue_position: 1 });

  const cancel = await request(server.url).delete(`/api/jobs/${first.job_id}`).expect(200);
  expect(cancel.body).toMatchObject({ job_id: first.job_id, status: 'cancelling' });
  const cancelled = await eventually(async () => {
    const j = await job(first.job_id);
    return j.status === 'cancelled' && j.completed_at ? j : null;
  }, 10_000);
  expect(cancelled.progress.completed).toBeLessThan(50);

  // The queue moved on: the waiting job runs to the end, with events and progress on the WebSocket.
  const events = await collectEvents(second.job_id);
  for (const e of events) expect(JobEventSchema.safeParse(e).success).toBe(true);
  expect(events.filter((e) => e.type === 'warning').map((e) => e.message)).toEqual([
    'step 1 of 3 done',
    'step 2 of 3 done',
    'step 3 of 3 done',
  ]);
  expect(events.at(-1)).toMatchObject({ type: 'status', status: 'completed', final: true });
  expect(await job(second.job_id)).toMatchObject({ status: 'completed', progress: { completed: 3, total: 3 } });

  const notes = await recentNotifications(store.db, 50);
  expect(notes.find((n) => n.jobId === second.job_id)).toMatchObject({ type: 'success', status: 'completed' });
  expect(notes.find((n) => n.jobId === first.job_id)).toMatchObject({ type: 'failure', status: 'cancelled' });
  expect((await auditForJob(store.db, second.job_id)).map((a) => a.action)).toEqual(
    expect.arrayContaining(['echo_queued', 'echo']),
  );
  expect((await auditForJob(store.db, first.job_id)).map((a) => a.action)).toEqual(
    expect.arrayContaining(['echo_queued', 'echo_cancel_requested', 'echo']),
  );
});
