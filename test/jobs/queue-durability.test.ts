import { Client, Connection } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import request from 'supertest';
import { createApp } from '../../api/app';
import { enqueueJob, cancelQueuedJob, queueSnapshot } from '../../api/jobs/queue-client';
import type { Store } from '../../store/db';
import { getJob } from '../../store/jobs/jobs';
import type { jobQueueWorkflow } from '../../workflows/jobs/queue-workflow';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { createTestStore } from '../helpers/db';
import { connectTestEnv, uniqueTaskQueue } from '../helpers/temporal';
import { jobAppDeps } from './api-app';
import { eventually, newJob, queueDeps, startJobWorker, type JobWorker } from './harness';

let env: TestWorkflowEnvironment;
let store: Store;
const workers: JobWorker[] = [];
const queues: string[] = [];
beforeAll(async () => {
  env = await connectTestEnv();
  store = await createTestStore();
});
afterAll(async () => {
  for (const q of queues)
    await env.client.workflow
      .getHandle(jobQueueWorkflowId('clone', q))
      .terminate('test over')
      .catch(() => undefined);
  for (const w of workers) await w.stop();
  await store?.close();
  await env?.teardown();
});

async function worker(taskQueue?: string): Promise<JobWorker> {
  const w = await startJobWorker(env, store, taskQueue);
  workers.push(w);
  if (!queues.includes(w.taskQueue)) queues.push(w.taskQueue);
  return w;
}
const statusOf = async (jobId: string) => (await getJob(store.db, jobId))?.status;

test('queue state and limits survive a restart of the API and of the worker', async () => {
  const first = await worker();
  const app1 = createApp(jobAppDeps(env, store, first.taskQueue));
  const post = (app: ReturnType<typeof createApp>, source: string) =>
    request(app).post('/api/clone').send({ source_catalog: source, destination_catalog: 'dst' });
  const running = (await post(app1, 'block_r').expect(200)).body.job_id;
  await eventually(async () => first.trace.blocking.has(running));
  const waiting: string[] = [];
  for (let i = 0; i < 4; i++) waiting.push((await post(app1, `r${i}`).expect(200)).body.job_id);
  await first.stop();

  // A new API process (own connection and client) and a new worker on the same task queue.
  const connection = await Connection.connect({ address: env.connection.options.address });
  try {
    const app2 = createApp(jobAppDeps(env, store, first.taskQueue, undefined, new Client({ connection })));
    const second = await worker(first.taskQueue);
    expect((await request(app2).get(`/api/clone/${waiting[0]}`).expect(200)).body).toMatchObject({
      status: 'queued',
      queue_position: 1,
    });
    expect((await request(app2).get(`/api/clone/${running}`).expect(200)).body.status).toBe('running');
    // The retried copy of the long activity runs on the new worker.
    await eventually(async () => second.trace.blocking.has(running));

    for (let i = 4; i < 10; i++) waiting.push((await post(app2, `r${i}`).expect(200)).body.job_id);
    expect((await post(app2, 'r_over').expect(429)).body.error.code).toBe('QUEUE_FULL');

    await request(app2).delete(`/api/clone/${running}`).expect(200);
    await eventually(async () => (await statusOf(waiting[0])) === 'completed');
    for (const id of waiting.slice(1)) await request(app2).delete(`/api/clone/${id}`).expect(200);
  } finally {
    await connection.close();
  }
});

test('a running clone outlives a continue-as-new of the queue and is still cancelled and recorded', async () => {
  const w = await worker(uniqueTaskQueue('jobs-can'));
  const deps = queueDeps(env, w.taskQueue);
  await env.client.workflow.start<typeof jobQueueWorkflow>('jobQueueWorkflow', {
    workflowId: jobQueueWorkflowId('clone', w.taskQueue),
    taskQueue: w.taskQueue,
    args: [{ jobType: 'clone', limits: deps.limits, waiting: [], running: [], historyLimit: 40 }],
  });
  const long = await newJob(store, 'block_can');
  await enqueueJob(deps, long);
  await eventually(async () => w.trace.blocking.has(long.jobId));
  const firstRun = (await env.client.workflow.getHandle(jobQueueWorkflowId('clone', w.taskQueue)).describe()).runId;
  // Churn: queue and cancel jobs until the queue has continued as new.
  await eventually(async () => {
    const job = await newJob(store, 'churn');
    await enqueueJob(deps, job);
    await cancelQueuedJob(deps, job.jobId);
    return (
      (await env.client.workflow.getHandle(jobQueueWorkflowId('clone', w.taskQueue)).describe()).runId !== firstRun
    );
  }, 30_000);
  expect((await queueSnapshot(deps))?.running.map((r) => r.jobId)).toEqual([long.jobId]);

  expect(await cancelQueuedJob(deps, long.jobId)).toBe('running');
  await eventually(async () => (await statusOf(long.jobId)) === 'cancelled');
  const next = await newJob(store, 'after_can');
  await enqueueJob(deps, next);
  await eventually(async () => (await statusOf(next.jobId)) === 'completed');
});

test('request_timeout_minutes aborts a job that ran too long and one that waited too long', async () => {
  const w = await worker(uniqueTaskQueue('jobs-timeout'));
  const deps = queueDeps(env, w.taskQueue, { requestTimeoutMinutes: 120 });
  const almostTwoHoursAgo = (secondsLeft: number) => new Date(Date.now() - 120 * 60_000 + secondsLeft * 1000);
  const slow = await newJob(store, 'block_slow', almostTwoHoursAgo(8));
  const stale = await newJob(store, 'stale', almostTwoHoursAgo(3));
  await enqueueJob(deps, slow);
  await enqueueJob(deps, stale);
  await eventually(async () => w.trace.blocking.has(slow.jobId));
  await eventually(async () => (await statusOf(stale.jobId)) === 'aborted');
  await eventually(async () => (await statusOf(slow.jobId)) === 'aborted');
  await eventually(async () => w.trace.cancelledActivities.includes(slow.jobId));
  expect((await getJob(store.db, slow.jobId))?.error).toMatch(/request_timeout_minutes \(120\)/);
  expect(w.trace.copied.some((c) => c.startsWith(stale.jobId))).toBe(false);
});
