import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createJobActivities } from '../../activities/jobs';
import type { QueueClientDeps } from '../../api/jobs/queue-client';
import { applyCloneDefaults, cloneRequestSchema } from '../../schemas/clone';
import type { Store } from '../../store/db';
import { createJob } from '../../store/jobs/jobs';
import type { WaitingJob } from '../../workflows/jobs/definitions';
import { createFixtureActivities, newTrace, type FixtureTrace } from './fixtures/activities';
import { uniqueTaskQueue } from '../helpers/temporal';
import { WORKER_TUNING } from '../../workers/worker-tuning';
import { eventually as pollUntil } from '../helpers/eventually';

export interface JobWorker {
  worker: Worker;
  taskQueue: string;
  trace: FixtureTrace;
  /** Resolves when the worker has stopped. */
  running: Promise<void>;
  stop(): Promise<void>;
}

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;
/** The fixture workflows bundled once per test file (bundling is the slow part of starting a worker). */
function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath: require.resolve('./fixtures/workflows'), logger: quietLogger });
  return bundle;
}
const quietLogger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** A real worker running the clone queue and the stand-in clone workflow on its own task queue. */
export async function startJobWorker(
  env: TestWorkflowEnvironment,
  store: Store,
  taskQueue = uniqueTaskQueue('jobs'),
): Promise<JobWorker> {
  const trace = newTrace();
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    ...WORKER_TUNING,
    workflowBundle: await workflowBundle(),
    activities: { ...createJobActivities({ store, client: env.client }), ...createFixtureActivities(store, trace) },
  });
  const running = worker.run();
  return {
    worker,
    taskQueue,
    trace,
    running,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    },
  };
}

export function queueDeps(
  env: TestWorkflowEnvironment,
  taskQueue: string,
  limits: Partial<QueueClientDeps['limits']> = {},
): QueueClientDeps {
  return {
    client: env.client,
    taskQueue,
    jobType: 'clone',
    limits: { maxConcurrent: 1, maxQueueSize: 10, requestTimeoutMinutes: 120, ...limits },
  };
}

let counter = 0;
/** A queued job as the API would build it (jobs row written first), for queue-level tests. */
export async function newJob(store: Store, source: string, createdAt = new Date()): Promise<WaitingJob> {
  const jobId = `clone-test-${process.pid}-${Date.now().toString(36)}-${++counter}`;
  const options = applyCloneDefaults(
    cloneRequestSchema.parse({ source_catalog: source, destination_catalog: `${source}_copy` }),
  );
  await createJob(store.db, {
    jobId,
    jobType: 'clone',
    status: 'queued',
    sourceCatalog: source,
    destinationCatalog: `${source}_copy`,
    createdAt,
  });
  return {
    jobId,
    workflowType: 'cloneCatalogWorkflow',
    createdAt: createdAt.toISOString(),
    input: {
      jobId,
      options,
      source: { kind: 'local', root: '/tmp/none' },
      targets: [],
      createdAt: createdAt.toISOString(),
      maxRetries: 3,
    },
  };
}

/**
 * The shared `eventually` (test/helpers/eventually.ts) in this file's older call shape: on timeout it names
 * `what` and the last value or error seen. New tests call the shared one with `{ what }` directly.
 */
export function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
  what = 'a queue test condition',
): Promise<T> {
  return pollUntil(check, { what, timeoutMs }) as Promise<T>;
}
