import { proxyActivities } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import type { SafetyActivities } from '../../activities/clone/post-clone';

/** Checks read whole catalogs: generous timeouts, heartbeats, a few retries for transient faults. */
export const checks = proxyActivities<SafetyActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '1 minute',
  retry: {
    initialInterval: '1 second',
    maximumAttempts: 5,
    nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
  },
});

/**
 * Giving grants back must not give up quickly: a lost re-grant leaves a source read-only. Transient faults are
 * retried for minutes; a logical one (a revoked permission) cannot heal by retrying, and the start-up sweep
 * releases whatever is still recorded as revoked.
 */
export const grants = proxyActivities<SafetyActivities>({
  startToCloseTimeout: '5 minutes',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '30 seconds',
    maximumAttempts: 30,
    nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
  },
});
