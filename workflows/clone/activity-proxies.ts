import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  type ActivityOptions,
} from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import type { CloneActivities } from '../../activities/clone';
import type { RetrySettings } from './engine-types';

/**
 * Activity profiles of the clone workflows. Transient failures retry with exponential backoff up to
 * max_retries (maximumAttempts = max_retries + 1, or 1 when enable_retry is off); logical errors arrive
 * as non-retryable ApplicationFailures (the types of NON_RETRYABLE_FAILURE_TYPES) and fail at once. Activities heartbeat every second, so a 10 s
 * heartbeat timeout notices a dead worker quickly and delivers cancellation within seconds.
 */
export function cloneActivities(retry: RetrySettings) {
  const policy: ActivityOptions['retry'] = {
    maximumAttempts: retry.maximumAttempts,
    initialInterval: retry.initialIntervalMs,
    backoffCoefficient: 2,
    maximumInterval: Math.max(retry.initialIntervalMs * 60, 1000),
    nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
  };
  // Explicit: left unset, the SDK sends TRY_CANCEL and a cancelled workflow would close while its
  // activities still run. Waiting means "cancelled" is reported only once the work really stopped.
  const cancellationType = ActivityCancellationType.WAIT_CANCELLATION_COMPLETED;
  const metadata = proxyActivities<CloneActivities>({
    startToCloseTimeout: '1 hour',
    heartbeatTimeout: '10 seconds',
    retry: policy,
    cancellationType,
  });
  // The short per-job and per-schema steps run as local activities on the workflow's worker: no task-queue
  // round trip through the server (tens of ms each, several per schema), same retries and cancellation.
  // Their heartbeats are no-ops; a step longer than the workflow task timeout keeps the task alive itself.
  const short =
    retry.localSteps === false
      ? metadata
      : proxyLocalActivities<CloneActivities>({
          startToCloseTimeout: '1 hour',
          retry: policy,
          cancellationType,
        });
  const copy = proxyActivities<CloneActivities>({
    startToCloseTimeout: '12 hours',
    heartbeatTimeout: '10 seconds',
    retry: policy,
    cancellationType,
  });
  // Job events and failure records are store writes: always retried, whatever enable_retry says.
  const events = proxyActivities<CloneActivities>({
    startToCloseTimeout: '1 minute',
    retry: {
      maximumAttempts: 5,
      initialInterval: Math.min(retry.initialIntervalMs, 1000),
      backoffCoefficient: 2,
      nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
    },
  });
  return {
    prepareTarget: asActivityFailure('prepareTarget', short.prepareTarget),
    planDryRun: metadata.planDryRun,
    prepareSchema: asActivityFailure('prepareSchema', short.prepareSchema),
    // Copies the schema's volumes too: the copy profile.
    finishSchema: copy.finishSchema,
    cloneTables: copy.cloneTables,
    cloneTablesAndFinish: copy.cloneTablesAndFinish,
    recordBatchFailure: events.recordBatchFailure,
    emitJobEvent: events.emitJobEvent,
    finishJob: asActivityFailure('finishJob', short.finishJob),
  };
}

/**
 * A local activity's failure reaches the workflow as the bare ApplicationFailure; wrapped here so a failed
 * job reports the same chain whichever way the step ran (WorkflowFailedError → ActivityFailure → cause).
 */
function asActivityFailure<A extends unknown[], R>(type: string, fn: (...args: A) => Promise<R>) {
  return async (...args: A): Promise<R> => {
    try {
      return await fn(...args);
    } catch (err) {
      if (isCancellation(err) || err instanceof ActivityFailure || !(err instanceof Error)) throw err;
      const retryState =
        err instanceof ApplicationFailure && err.nonRetryable ? 'NON_RETRYABLE_FAILURE' : 'MAXIMUM_ATTEMPTS_REACHED';
      throw new ActivityFailure('Activity task failed', type, undefined, retryState, undefined, err);
    }
  };
}

export function retrySettings(
  enableRetry: boolean,
  maxRetries: number,
  initialIntervalMs?: number,
  throttled = false,
): RetrySettings {
  return {
    maximumAttempts: enableRetry ? Math.max(0, maxRetries) + 1 : 1,
    initialIntervalMs: initialIntervalMs ?? 1000,
    ...(throttled ? { localSteps: false } : {}),
  };
}
