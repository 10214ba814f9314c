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
import {
  CLONE_WORKFLOW_TYPE,
  type CloneCatalogWorkflow,
  type CloneQueueState,
  type JobEnd,
  type RunningJob,
  type WaitingJob,
} from './definitions';
import { adjustForTimeout, endFromFailure, endFromSummary, timeoutMessage } from './outcome';
import { cancelClone, registerQueueHandlers } from './queue-handlers';

type JobActivities = ReturnType<typeof createJobActivities>;
const { markJobRunning, recordJobEnd } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});
// Waits on a clone started by an earlier run of the queue (before continue-as-new); heartbeats while it waits.
const { waitForJob } = proxyActivities<JobActivities>({
  startToCloseTimeout: '30 days',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds' },
});

/** Continue-as-new after this many history events (or when the server suggests it). */
const DEFAULT_HISTORY_LIMIT = 2000;
/** Extra time a cancelled clone gets to clean up before its hard execution timeout. */
const CLEANUP_GRACE_MS = 10 * 60_000;

export interface CloneQueueInput extends CloneQueueState {
  historyLimit?: number;
}

/**
 * The durable clone queue (workflow id `clone-queue`). Admits jobs through the `enqueueClone` update, whose
 * validator rejects with QueueFull when the waiting list is full; starts at most maxConcurrent clone workflows
 * as abandoned children (a continue-as-new of the queue never touches a running clone); records every job's
 * end; cancels jobs older than request_timeout_minutes.
 */
export async function cloneQueueWorkflow(input: CloneQueueInput): Promise<void> {
  const state: CloneQueueState = { limits: input.limits, waiting: [...input.waiting], running: [...input.running] };
  const historyLimit = input.historyLimit ?? DEFAULT_HISTORY_LIMIT;
  const starting = new Set<string>();
  let inFlight = 0; // starts and records that must land before continue-as-new
  let changes = 0;
  const touch = () => void changes++;
  // The SDK makes Date deterministic inside workflows: this is the workflow task's time.
  const now = () => new Date().getTime();
  const deadlineOf = (createdAt: string) => Date.parse(createdAt) + state.limits.requestTimeoutMinutes * 60_000;

  async function finish(end: JobEnd): Promise<void> {
    inFlight++;
    try {
      await recordJobEnd(end);
    } finally {
      inFlight--;
      touch();
    }
  }

  async function watch(entry: RunningJob, job?: WaitingJob): Promise<void> {
    let end: JobEnd;
    if (job) {
      inFlight++;
      starting.add(entry.jobId);
      try {
        const remaining = Math.max(deadlineOf(entry.createdAt) - now(), 1000);
        const child = await startChild<CloneCatalogWorkflow>(CLONE_WORKFLOW_TYPE, {
          workflowId: entry.jobId,
          args: [job.input],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          workflowExecutionTimeout: remaining + CLEANUP_GRACE_MS,
          typedSearchAttributes: [
            { key: JOB_TYPE, value: 'clone' },
            { key: SOURCE_CATALOG, value: job.input.options.source_catalog },
            { key: DESTINATION_CATALOG, value: job.input.options.destination_catalog },
          ],
        });
        await markJobRunning(entry.jobId);
        starting.delete(entry.jobId);
        inFlight--;
        touch();
        end = await child.result().then(
          (summary) => endFromSummary(entry.jobId, summary),
          (err) => endFromFailure(entry.jobId, err),
        );
      } catch (err) {
        starting.delete(entry.jobId);
        inFlight--;
        end = { jobId: entry.jobId, status: 'failed', error: `the clone could not start: ${(err as Error).message}` };
      }
    } else {
      end = await waitForJob(entry.jobId);
    }
    state.running = state.running.filter((r) => r.jobId !== entry.jobId);
    await finish(adjustForTimeout(entry, end, state.limits.requestTimeoutMinutes));
  }

  registerQueueHandlers({ state, starting, touch, finish });

  // Carried-over running jobs (from before a continue-as-new) are awaited through an activity.
  for (const entry of state.running) void watch(entry);

  for (;;) {
    expireWaiting();
    cancelOverdue();
    while (state.running.length < state.limits.maxConcurrent && state.waiting.length > 0) {
      const job = state.waiting.shift()!;
      const entry: RunningJob = {
        jobId: job.jobId,
        createdAt: job.input.createdAt,
        startedAt: new Date(now()).toISOString(),
        timedOut: false,
      };
      state.running.push(entry);
      void watch(entry, job);
    }
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > historyLimit) {
      await condition(() => inFlight === 0 && allHandlersFinished());
      await continueAsNew<typeof cloneQueueWorkflow>({ ...state, historyLimit: input.historyLimit });
    }
    const seen = changes;
    const timeout = nextDeadlineIn();
    if (timeout === undefined) await condition(() => changes !== seen);
    else await condition(() => changes !== seen, timeout);
  }

  function expireWaiting(): void {
    const expired = state.waiting.filter((w) => deadlineOf(w.input.createdAt) <= now());
    if (expired.length === 0) return;
    state.waiting = state.waiting.filter((w) => !expired.includes(w));
    const error = timeoutMessage(state.limits.requestTimeoutMinutes);
    for (const w of expired) void finish({ jobId: w.jobId, status: 'aborted', error });
  }

  function cancelOverdue(): void {
    for (const entry of state.running) {
      if (entry.timedOut || deadlineOf(entry.createdAt) > now() || starting.has(entry.jobId)) continue;
      entry.timedOut = true;
      void cancelClone(entry.jobId);
    }
  }

  function nextDeadlineIn(): number | undefined {
    const pending = [
      ...state.waiting.map((w) => w.input.createdAt),
      ...state.running.filter((r) => !r.timedOut).map((r) => r.createdAt),
    ];
    if (pending.length === 0) return undefined;
    return Math.max(Math.min(...pending.map(deadlineOf)) - now(), 1000);
  }
}
