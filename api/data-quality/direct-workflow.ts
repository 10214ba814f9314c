import { randomBytes } from 'node:crypto';
import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';

/** HTTP status of a failure type of the one vocabulary (activities/clone/logic/failures). */
const STATUS: Record<string, number> = {
  NotFound: 404,
  InvalidInput: 422,
  PermissionDenied: 403,
  Conflict: 409,
  AlreadyExists: 409,
  InvalidWarehouse: 422,
};

/** `dq-profile-20261124-101500-3fa2`: a readable, unique workflow id. */
export function directWorkflowId(kind: string, at = new Date()): string {
  const iso = at.toISOString();
  return `dq-${kind}-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}-${randomBytes(2).toString('hex')}`;
}

/**
 * Runs a short data-quality workflow (a profile, a segmented run) on the worker and waits for its result; a
 * failure answers with the status of its failure type and the root cause's message.
 */
export async function executeDqWorkflow<T>(
  deps: AppDeps,
  workflowType: string,
  workflowId: string,
  arg: unknown,
): Promise<T> {
  if (!deps.temporal)
    throw new HttpError(503, 'TEMPORAL_UNAVAILABLE', 'Temporal is not configured; data-quality work cannot run');
  try {
    return (await deps.temporal.client.workflow.execute(workflowType, {
      taskQueue: deps.config.temporal.task_queue,
      workflowId,
      args: [arg],
    })) as T;
  } catch (err) {
    if (!(err instanceof WorkflowFailedError)) throw err;
    let type: string | undefined;
    for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause)
      if (e instanceof ApplicationFailure) type = e.type ?? type;
    throw new HttpError(STATUS[type ?? ''] ?? 500, type ?? 'WORKFLOW_FAILED', rootCauseMessage(err));
  }
}
