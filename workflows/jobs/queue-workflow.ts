import {
  ParentClosePolicy,
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { createJobActivities } from '../../activities/jobs';
import { DESTINATION_CATALOG, JOB_TYPE, SOURCE_CATALOG } from './search-attributes';
import type { JobEnd, JobQueueState, JobResult, RunningJob, WaitingJob } from './definitions';
import { adjustForCancel, endFromFailure, endFromResult, timeoutMessage } from '../../activities/jobs/logic/outcome';
import { cancelWorkflow, registerQueueHandlers } from './queue-handlers';

type JobActivities = ReturnType<typeof createJobActivities>;
const { markJobRunning, recordJobEnd, terminateJob } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});
// Waits on a job started by an earlier run of the queue (before continue-as-new); heartbeats while it waits.
const { waitForJob } = proxyActivities<JobActivities>({
  startToCloseTimeout: '30 days',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds' },
});

/** Continue-as-new after this many history events (or when the server suggests it). */
const DEFAULT_HISTORY_LIMIT = 2000;
/** Extra time a cancelled job gets to clean up before its hard execution timeout. */
const CLEANUP_GRACE_MS = 10 * 60_000;
/** A job that has not stopped this long after its cancel was delivered is terminated, so the queue moves on. */
const DEFAULT_CANCEL_GRACE_MS = 60_000;

export interface JobQueueInput extends JobQueueState {
  historyLimit?: number;
  cancelGraceMs?: number;
}

/**
 * The durable queue of one job type (workflow id `queue-<type>`). Admits jobs through the `enqueueJob` update,
 * whose validator rejects with QueueFull when the waiting list is full; starts at most maxConcurrent job
 * workflows as abandoned children (a continue-as-new of the queue never touches a running job); records every
 * job's end; cancels jobs older than request_timeout_minutes.
 *
 * Cancel is a flag on the running entry, never a wait inside the update: the main loop delivers it as soon as
 * the job's workflow exists (a cancel that arrives while the child is being started is applied right after the
 * start), and terminates a job that has not stopped `cancelGraceMs` after delivery, so one stuck job can never
 * hold its run slot.
 */
export async function jobQueueWorkflow(input: JobQueueInput): Promise<void> {
  const state: JobQueueState = {
    jobType: input.jobType,
    limits: input.limits,
    waiting: [...input.waiting],
    running: [...input.running],
  };
  const historyLimit = input.historyLimit ?? DEFAULT_HISTORY_LIMIT;
  const cancelGraceMs = input.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS;
  // Jobs whose workflow exists (started by this run, or carried over from the previous one).
  const started = new Set<string>(state.running.map((r) => r.jobId));
  const terminating = new Set<string>();
  let inFlight = 0; // starts and records that must land before continue-as-new
  let changes = 0;
  const touch = () => void changes++;
  // The SDK makes Date deterministic inside workflows: this is the workflow task's time.
  const now = () => new Date().getTime();
  const deadlineOf = (createdAt: string) => Date.parse(createdAt) + state.limits.requestTimeoutMinutes * 60_000;

  async function finish(end: JobEnd): Promise<void> {
    inFlight++;
    try {
      await recordJobEnd(end, state.jobType);
    } finally {
      inFlight--;
      touch();
    }
  }

  async function start(entry: RunningJob, job: WaitingJob): Promise<{ result: Promise<JobResult> } | { end: JobEnd }> {
    inFlight++;
    try {
      const remaining = Math.max(deadlineOf(entry.createdAt) - now(), 1000);
      const child = await startChild(job.workflowType, {
        workflowId: entry.jobId,
        args: [job.input],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        workflowExecutionTimeout: remaining + CLEANUP_GRACE_MS,
        typedSearchAttributes: [
          { key: JOB_TYPE, value: state.jobType },
          ...(job.searchAttributes?.sourceCatalog
            ? [{ key: SOURCE_CATALOG, value: job.searchAttributes.sourceCatalog }]
            : []),
          ...(job.searchAttributes?.destinationCatalog
            ? [{ key: DESTINATION_CATALOG, value: job.searchAttributes.destinationCatalog }]
            : []),
        ],
      });
      await markJobRunning(entry.jobId);
      return { result: child.result() as Promise<JobResult> };
    } catch (err) {
      return {
        end: { jobId: entry.jobId, status: 'failed', error: `the job could not start: ${(err as Error).message}` },
      };
    } finally {
      inFlight--;
      started.add(entry.jobId);
      touch();
    }
  }

  async function watch(entry: RunningJob, job?: WaitingJob): Promise<void> {
    let end: JobEnd;
    if (job) {
      const started = await start(entry, job);
      end =
        'end' in started
          ? started.end
          : await started.result.then(
              (result) => endFromResult(entry.jobId, result),
              (err) => endFromFailure(entry.jobId, err),
            );
    } else {
      end = await waitForJob(entry.jobId);
    }
    state.running = state.running.filter((r) => r.jobId !== entry.jobId);
    started.delete(entry.jobId);
    terminating.delete(entry.jobId);
    await finish(adjustForCancel(entry, end, state.limits.requestTimeoutMinutes));
  }

  registerQueueHandlers({ state, touch, finish, now });

  // Carried-over running jobs (from before a continue-as-new) are awaited through an activity.
  for (const entry of state.running) void watch(entry);

  for (;;) {
    expireWaiting();
    cancelOverdue();
    deliverCancels();
    while (state.running.length < state.limits.maxConcurrent && state.waiting.length > 0) {
      const job = state.waiting.shift()!;
      const entry: RunningJob = {
        jobId: job.jobId,
        createdAt: job.createdAt,
        startedAt: new Date(now()).toISOString(),
        timedOut: false,
      };
      state.running.push(entry);
      void watch(entry, job);
    }
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > historyLimit) {
      await condition(() => inFlight === 0 && allHandlersFinished());
      await continueAsNew<typeof jobQueueWorkflow>({
        ...state,
        historyLimit: input.historyLimit,
        cancelGraceMs: input.cancelGraceMs,
      });
    }
    const seen = changes;
    const timeout = nextDeadlineIn();
    if (timeout === undefined) await condition(() => changes !== seen);
    else await condition(() => changes !== seen, timeout);
  }

  function expireWaiting(): void {
    const expired = state.waiting.filter((w) => deadlineOf(w.createdAt) <= now());
    if (expired.length === 0) return;
    state.waiting = state.waiting.filter((w) => !expired.includes(w));
    const error = timeoutMessage(state.limits.requestTimeoutMinutes);
    for (const w of expired) void finish({ jobId: w.jobId, status: 'aborted', error });
  }

  function cancelOverdue(): void {
    for (const entry of state.running) {
      if (entry.timedOut || deadlineOf(entry.createdAt) > now()) continue;
      entry.timedOut = true;
      entry.cancelRequestedAtMs ??= now();
    }
  }

  /** Sends pending cancels to jobs whose workflow exists; terminates jobs that ignored theirs too long. */
  function deliverCancels(): void {
    for (const entry of state.running) {
      if (entry.cancelRequestedAtMs === undefined || !started.has(entry.jobId)) continue;
      if (!entry.cancelDelivered) {
        entry.cancelDelivered = true;
        void cancelWorkflow(entry.jobId);
      } else if (now() - entry.cancelRequestedAtMs >= cancelGraceMs && !terminating.has(entry.jobId)) {
        terminating.add(entry.jobId);
        void terminateJob(entry.jobId, `cancel requested ${Math.round(cancelGraceMs / 1000)} s ago; terminated`);
      }
    }
  }

  function nextDeadlineIn(): number | undefined {
    const deadlines = [
      ...state.waiting.map((w) => deadlineOf(w.createdAt)),
      ...state.running.filter((r) => !r.timedOut).map((r) => deadlineOf(r.createdAt)),
      ...state.running
        .filter((r) => r.cancelDelivered && !terminating.has(r.jobId))
        .map((r) => r.cancelRequestedAtMs! + cancelGraceMs),
    ];
    if (deadlines.length === 0) return undefined;
    return Math.max(Math.min(...deadlines) - now(), 1000);
  }
}
