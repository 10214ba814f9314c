import { ActivityCancellationType, proxyActivities } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import { gateCannotRun, type GateResult } from '../../activities/data-quality/logic/gate';
import type { DataQualityActivities, DqOperation, DqOperationResult } from '../../activities/data-quality';

const { dqOperation } = proxyActivities<DataQualityActivities>({
  startToCloseTimeout: '1 hour',
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
 * A short data-quality operation for the API (workflow id `dq-<kind>-…`): a gate evaluation, a suite validation,
 * an inline rule's test or a cross-table check. A gate whose evaluation fails for good (retries run out) still
 * answers, failed closed with the cause.
 */
export async function dqOperationWorkflow(op: DqOperation): Promise<DqOperationResult> {
  if (op.kind !== 'gate') return dqOperation(op);
  try {
    return await dqOperation(op);
  } catch (err) {
    const target = {
      table_fqn: op.req.suite_id ? null : (op.req.table_fqn ?? null),
      suite_id: op.req.suite_id ?? null,
    };
    return gateCannotRun(target, op.req.min_pass_rate, rootCauseMessage(err)) satisfies GateResult;
  }
}
