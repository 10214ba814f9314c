import type { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  cancelQueuedJob,
  enqueueJob,
  queueSnapshot,
  QueueRejectedError,
  QueueUnavailableError,
} from '../../api/jobs/queue-client';
import type { Store } from '../../store/db';
import { getJob } from '../../store/jobs/jobs';
import { jobQueueWorkflowId, type WaitingJob } from '../../workflows/jobs/definitions';
import { createTestStore } from '../helpers/db';
import { connectTestEnv } from '../helpers/temporal';
import { eventually, newJob, queueDeps, startJobWorker, type JobWorker } from './harness';

let env: TestWorkflowEnvironment;
let store: Store;
let w: JobWorker;
beforeAll(async () => {
  env = await connectTestEnv();
  store = await createTestStore();
  w = await startJobWorker(env, store);
});
afterAll(async () => {
  await env.client.workflow
    .getHandle(jobQueueWorkflowId('clone', w.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await w?.stop();
  await store?.close();
  await env?.teardown();
});

const statusOf = async (jobId: string) => (await getJob(store.db, jobId))?.status;

test('one clone runs, ten wait, the eleventh waiting request is refused; cancels stop running and queued jobs', async () => {
  const deps = queueDeps(env, w.taskQueue);
  const blocker = await newJob(store, 'block_main');
  expect(await enqueueJob(deps, blocker)).toEqual({ jobId: blocker.jobId, position: 0 });
  await eventually(async () => w.trace.blocking.has(blocker.jobId));
  expect(await statusOf(blocker.jobId)).toBe('running');

  const waiting: WaitingJob[] = [];
  for (let i = 0; i < 10; i++) {
    const job = await newJob(store, `src${i}`);
    expect((await enqueueJob(deps, job)).position).toBe(i + 1);
    waiting.push(job);
  }
  const eleventh = await newJob(store, 'src_over');
  const refused = await enqueueJob(deps, eleventh).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(QueueRejectedError);
  expect((refused as QueueRejectedError).reason).toBe('full');
  expect((refused as QueueRejectedError).message).toMatch(/queue is full.*max_queue_size 10/);

  // A queued job cancelled now never starts.
  expect(await cancelQueuedJob(deps, waiting[0].jobId)).toBe('waiting');
  expect(await statusOf(waiting[0].jobId)).toBe('cancelled');

  // Cancelling the running job reaches its heartbeating activity; the next job then runs to completion.
  expect(await cancelQueuedJob(deps, blocker.jobId)).toBe('running');
  await eventually(async () => w.trace.cancelledActivities.includes(blocker.jobId));
  await eventually(async () => (await statusOf(blocker.jobId)) === 'cancelled');
  await eventually(async () => (await statusOf(waiting[1].jobId)) === 'completed');
  expect(w.trace.copied.some((c) => c.startsWith(waiting[0].jobId))).toBe(false);

  for (const job of waiting.slice(2)) await cancelQueuedJob(deps, job.jobId);
  const snapshot = await eventually(async () => {
    const s = await queueSnapshot(deps);
    return s && s.waiting.length === 0 && s.running.length === 0 ? s : null;
  });
  expect(snapshot.limits.maxQueueSize).toBe(10);
  expect(await cancelQueuedJob(deps, 'clone-19990101-000000-dead')).toBe('unknown');
});

test('an enqueue that no worker accepts fails in bounded time instead of hanging', async () => {
  const lonely = `${w.taskQueue}-no-worker`;
  const deps = { ...queueDeps(env, lonely), enqueueTimeoutMs: 1500 };
  const started = Date.now();
  const err = await enqueueJob(deps, await newJob(store, 'nobody')).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(QueueUnavailableError);
  expect((err as Error).message).toMatch(/no worker accepted the job/);
  expect(Date.now() - started).toBeLessThan(10_000);
  await env.client.workflow.getHandle(jobQueueWorkflowId('clone', lonely)).terminate('test over');
});
