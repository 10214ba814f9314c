import { ApplicationFailure, getExternalWorkflowHandle, log, setHandler } from '@temporalio/workflow';
import {
  JOB_ALREADY_QUEUED,
  QUEUE_FULL,
  cancelJobUpdate,
  enqueueJobUpdate,
  jobQueueQuery,
  type JobEnd,
  type JobQueueState,
} from './definitions';

export interface QueueContext {
  state: JobQueueState;
  /** Wakes the queue's main loop. */
  touch: () => void;
  /** Records a job's end (durably, before a continue-as-new). */
  finish: (end: JobEnd) => Promise<void>;
  /** Workflow time in ms. */
  now: () => number;
}

/** The queue's query and updates: snapshot, enqueue (validated against the limits), cancel. */
export function registerQueueHandlers(ctx: QueueContext): void {
  const { state } = ctx;
  setHandler(jobQueueQuery, () => ({
    jobType: state.jobType,
    limits: state.limits,
    waiting: state.waiting.map((w, i) => ({ jobId: w.jobId, createdAt: w.createdAt, position: i + 1 })),
    running: state.running.map(({ jobId, createdAt, startedAt, cancelRequestedAtMs }) => ({
      jobId,
      createdAt,
      startedAt,
      cancelRequested: cancelRequestedAtMs !== undefined,
    })),
  }));

  setHandler(
    enqueueJobUpdate,
    (job, limits) => {
      state.limits = limits;
      const free = Math.max(0, limits.maxConcurrent - state.running.length);
      state.waiting.push(job);
      ctx.touch();
      return { jobId: job.jobId, position: Math.max(0, state.waiting.length - free) };
    },
    {
      validator: (job, limits) => {
        if (state.waiting.some((w) => w.jobId === job.jobId) || state.running.some((r) => r.jobId === job.jobId)) {
          throw ApplicationFailure.create({ type: JOB_ALREADY_QUEUED, message: `job ${job.jobId} is already queued` });
        }
        // Jobs that will start at once (free run slots) do not count as waiting.
        const free = Math.max(0, limits.maxConcurrent - state.running.length);
        const waiting = Math.max(0, state.waiting.length - free);
        if (waiting >= limits.maxQueueSize) {
          throw ApplicationFailure.create({
            type: QUEUE_FULL,
            message: `the ${state.jobType} queue is full: ${state.running.length} running, ${waiting} waiting (max_queue_size ${limits.maxQueueSize})`,
            details: [{ running: state.running.length, waiting, max_queue_size: limits.maxQueueSize }],
          });
        }
      },
    },
  );

  // Never waits: a waiting job is removed and recorded at once; a running one is flagged, and the main loop
  // delivers the cancel as soon as its workflow exists.
  setHandler(cancelJobUpdate, async (jobId) => {
    const index = state.waiting.findIndex((w) => w.jobId === jobId);
    if (index >= 0) {
      state.waiting.splice(index, 1);
      ctx.touch();
      await ctx.finish({ jobId, status: 'cancelled', error: 'cancelled while queued' });
      return 'waiting';
    }
    const entry = state.running.find((r) => r.jobId === jobId);
    if (!entry) return 'unknown';
    entry.cancelRequestedAtMs ??= ctx.now();
    ctx.touch();
    return 'running';
  });
}

/** Requests cancellation of a running job's workflow; its activities see it at their next heartbeat. */
export async function cancelWorkflow(jobId: string): Promise<void> {
  try {
    await getExternalWorkflowHandle(jobId).cancel();
  } catch (err) {
    // The job may have finished in the meantime; its end is recorded by its watcher.
    log.info('cancel of a job that is no longer running', { jobId, error: (err as Error).message });
  }
}
