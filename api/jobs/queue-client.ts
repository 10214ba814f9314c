import {
  WithStartWorkflowOperation,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import type { cloneQueueWorkflow } from '../../workflows/jobs/clone-queue-workflow';
import {
  cloneQueueWorkflowId,
  JOB_ALREADY_QUEUED,
  QUEUE_FULL,
  cancelCloneJobUpdate,
  cloneQueueQuery,
  enqueueCloneUpdate,
  type CancelOutcome,
  type EnqueueResult,
  type QueueLimits,
  type QueueSnapshot,
  type WaitingJob,
} from '../../workflows/jobs/definitions';

export interface QueueClientDeps {
  client: Client;
  taskQueue: string;
  limits: QueueLimits;
  /** How long an enqueue may wait for a worker to accept it (default 30 s). */
  enqueueTimeoutMs?: number;
}

/** No worker accepted the enqueue in time (none is polling the task queue, or all are stuck). */
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

/**
 * Adds a job to the clone queue, starting the queue workflow if it is not running (update-with-start,
 * USE_EXISTING), so the first request after an install or a lost queue brings it up.
 */
export async function enqueueClone(deps: QueueClientDeps, job: WaitingJob): Promise<EnqueueResult> {
  const start = new WithStartWorkflowOperation<typeof cloneQueueWorkflow>('cloneQueueWorkflow', {
    workflowId: cloneQueueWorkflowId(deps.taskQueue),
    taskQueue: deps.taskQueue,
    args: [{ limits: deps.limits, waiting: [], running: [] }],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  const timeoutMs = deps.enqueueTimeoutMs ?? 30_000;
  try {
    return await deps.client.withDeadline(Date.now() + timeoutMs, () =>
      deps.client.workflow.executeUpdateWithStart(enqueueCloneUpdate, {
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

/** Cancels a waiting job (it never starts) or a running one (its clone workflow is cancelled). */
export async function cancelCloneJob(deps: QueueClientDeps, jobId: string): Promise<CancelOutcome> {
  try {
    return await deps.client.workflow
      .getHandle(cloneQueueWorkflowId(deps.taskQueue))
      .executeUpdate(cancelCloneJobUpdate, { args: [jobId] });
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return 'unknown';
    throw err;
  }
}

/** What the queue holds now; empty when the queue workflow has never run. */
export async function queueSnapshot(deps: QueueClientDeps): Promise<QueueSnapshot | null> {
  try {
    return await deps.client.workflow.getHandle(cloneQueueWorkflowId(deps.taskQueue)).query(cloneQueueQuery);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}
