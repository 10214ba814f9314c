import { proxyActivities } from '@temporalio/workflow';
import type { BudgetActivities, EvaluationResult } from '../../activities/finops/budgets';

const { evaluateBudgets } = proxyActivities<BudgetActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 3 },
});

/** The hourly budget check (and POST …/budgets/evaluate): alerts once per budget, period and level. */
export async function budgetEvaluationWorkflow(): Promise<EvaluationResult> {
  return evaluateBudgets();
}
