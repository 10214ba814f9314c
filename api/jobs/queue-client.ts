import {
  WithStartWorkflowOperation,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import type { jobQueueWorkflow } from '../../workflows/jobs/queue-workflow';
import {
  JOB_ALREADY_QUEUED,
  JOB_QUEUE_WORKFLOW_TYPE,
  QUEUE_FULL,
  cancelJobUpdate,
  enqueueJobUpdate,
  jobQueueQuery,
  jobQueueWorkflowId,
  type CancelOutcome,
  type EnqueueResult,
  type QueueLimits,
  type QueueSnapshot,
  type WaitingJob,
} from '../../workflows/jobs/definitions';

export interface QueueClientDeps {
  client: Client;
  taskQueue: string;
  jobType: string;
  limits: QueueLimits;
  /** How long a queue update may wait for a worker to accept it (default 30 s). */
  enqueueTimeoutMs?: number;
}

/** No worker accepted the update in time (none is polling the task queue, or all are stuck). */
export class QueueUnavailableError extends Error {
  constructor(taskQueue: string, ms: number) {
    super(
      `no worker accepted the job within ${Math.round(ms / 1000)} s: is a worker polling task queue "${taskQueue}"?`,
    );
    this.name = 'QueueUnavailableError';
  }
}

/** The enqueue was refused by the queue workflow's validator; nothing was queued. */
export class QueueRejectedError extends Error {
  constructor(
    readonly reason: 'full' | 'duplicate',
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'QueueRejectedError';
  }
}

const queueId = (deps: QueueClientDeps) => jobQueueWorkflowId(deps.jobType, deps.taskQueue);

/**
 * Adds a job to its type's queue, starting the queue workflow if it is not running (update-with-start,
 * USE_EXISTING), so the first request after an install or a lost queue brings it up.
 */
export async function enqueueJob(deps: QueueClientDeps, job: WaitingJob): Promise<EnqueueResult> {
  const start = new WithStartWorkflowOperation<typeof jobQueueWorkflow>(JOB_QUEUE_WORKFLOW_TYPE, {
    workflowId: queueId(deps),
    taskQueue: deps.taskQueue,
    args: [{ jobType: deps.jobType, limits: deps.limits, waiting: [], running: [] }],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  const timeoutMs = deps.enqueueTimeoutMs ?? 30_000;
  try {
    return await deps.client.withDeadline(Date.now() + timeoutMs, () =>
      deps.client.workflow.executeUpdateWithStart(enqueueJobUpdate, {
        args: [job, deps.limits],
        startWorkflowOperation: start,
        updateId: job.jobId,
      }),
    );
  } catch (err) {
    if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError)
      throw new QueueUnavailableError(deps.taskQueue, timeoutMs);
    const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type === QUEUE_FULL) {
      throw new QueueRejectedError('full', cause.message, (cause.details?.[0] as Record<string, unknown>) ?? {});
    }
    if (cause instanceof ApplicationFailure && cause.type === JOB_ALREADY_QUEUED) {
      throw new QueueRejectedError('duplicate', cause.message);
    }
    throw err;
  }
}

/** Cancels a waiting job (it never starts) or flags a running one (the queue delivers the cancel). */
export async function cancelQueuedJob(deps: QueueClientDeps, jobId: string): Promise<CancelOutcome> {
  const timeoutMs = deps.enqueueTimeoutMs ?? 30_000;
  try {
    return await deps.client.withDeadline(Date.now() + timeoutMs, () =>
      deps.client.workflow.getHandle(queueId(deps)).executeUpdate(cancelJobUpdate, { args: [jobId] }),
    );
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return 'unknown';
    if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError)
      throw new QueueUnavailableError(deps.taskQueue, timeoutMs);
    throw err;
  }
}

/** What the queue holds now; null when the queue workflow has never run. */
export async function queueSnapshot(deps: QueueClientDeps): Promise<QueueSnapshot | null> {
  try {
    return await deps.client.workflow.getHandle(queueId(deps)).query(jobQueueQuery);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}
