import { ActivityCancellationType, proxyActivities } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import type { DataQualityActivities, DqSegmentedRequest, ProfileResult } from '../../activities/data-quality';
import type { SegmentedResult } from '../../schemas/data-quality';
import type { DqProfileInput } from '../../schemas/data-quality-profiles';

const { dqProfile, dqSegmentedRun } = proxyActivities<DataQualityActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '30 seconds',
  retry: {
    maximumAttempts: 3,
    initialInterval: 1000,
    backoffCoefficient: 2,
    nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
  },
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
});

/**
 * A profile (workflow id `dq-profile-…`): one activity that scans the table once for its counts and then
 * each column's top values and histogram. Started and awaited by the API; not queued as a job.
 */
export async function dqProfileWorkflow(input: DqProfileInput): Promise<ProfileResult> {
  return dqProfile(input);
}

/** A segmented run (workflow id `dq-segment-…`): one grouped scan of the table. */
export async function dqSegmentedRunWorkflow(req: DqSegmentedRequest): Promise<SegmentedResult> {
  return dqSegmentedRun(req);
}
