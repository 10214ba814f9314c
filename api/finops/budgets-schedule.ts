import { ScheduleAlreadyRunning } from '@temporalio/client';
import type { EvaluationResult } from '../../activities/finops/logic/budgets';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';

export const BUDGET_SCHEDULE_ID = 'finops-budgets';

/** The hourly Temporal Schedule that evaluates every budget; made with the first budget, left as it is after. */
export async function ensureBudgetSchedule(deps: AppDeps): Promise<void> {
  if (!deps.temporal) return;
  try {
    await deps.temporal.client.schedule.create({
      scheduleId: BUDGET_SCHEDULE_ID,
      spec: { intervals: [{ every: '1 hour', offset: '5 minutes' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'budgetEvaluationWorkflow',
        workflowId: BUDGET_SCHEDULE_ID,
        taskQueue: deps.config.temporal.task_queue,
        args: [],
      },
      policies: { overlap: 'SKIP', catchupWindow: '1 hour' },
      memo: { kind: 'budget-evaluation' },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}

/** Runs the same workflow the Schedule runs and waits for its result. */
export async function runBudgetEvaluation(deps: AppDeps): Promise<EvaluationResult> {
  if (!deps.temporal) throw new HttpError(503, 'TEMPORAL_UNAVAILABLE', 'budget evaluation needs Temporal');
  return deps.temporal.client.workflow.execute('budgetEvaluationWorkflow', {
    workflowId: `${BUDGET_SCHEDULE_ID}-now-${Date.now()}`,
    taskQueue: deps.config.temporal.task_queue,
    args: [],
  });
}
