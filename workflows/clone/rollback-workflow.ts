import { proxyActivities, setHandler } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import type { RollbackActivities } from '../../activities/clone/rollback/activities';
import {
  rollbackProgressQuery,
  type RollbackInput,
  type RollbackResult,
  type RollbackStepOutcome,
} from './rollback-definitions';

const steps = proxyActivities<RollbackActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', maximumAttempts: 10, nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES] },
});

/**
 * Undoes what a clone job changed on one target, step by step (each a retryable, idempotent activity:
 * restoring to a recorded version and dropping-if-exists give the same end state when repeated).
 */
export async function rollbackWorkflow(input: RollbackInput): Promise<RollbackResult> {
  const plan = await steps.loadRollbackPlan(input.rollbackId);
  const outcomes: RollbackStepOutcome[] = [];
  setHandler(rollbackProgressQuery, () => ({
    done: outcomes.length,
    total: plan.steps.length,
    failed: outcomes.filter((o) => o.outcome === 'failed').length,
  }));
  // Sequential on purpose: drops must follow restores and run children before parents.
  for (const step of plan.steps) outcomes.push(await steps.undoRollbackStep({ workspace: plan.workspace, step }));
  const count = (o: RollbackStepOutcome['outcome']) => outcomes.filter((x) => x.outcome === o).length;
  const result: RollbackResult = {
    rollback_id: plan.rollbackId,
    job_id: plan.jobId,
    status: count('failed') === 0 ? 'rolled_back' : 'rollback_failed',
    reason: input.reason ?? 'manual',
    restored: count('restored'),
    dropped: count('dropped'),
    failed: count('failed'),
    steps: outcomes,
  };
  await steps.finishRollback(result);
  return result;
}
