import { executeChild, proxyActivities, workflowInfo } from '@temporalio/workflow';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import type { DataQualityActivities } from '../../activities/data-quality';
import type { SuiteValidation } from '../../activities/data-quality/logic/gx';
import { dqOperationWorkflow } from './ops-workflows';
import { dqRunWorkflow, type DqRunJobResult } from './run-workflow';

const { dqPlanScheduledRun, dqScheduledRunFailed } = proxyActivities<DataQualityActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5 },
});

export interface DqScheduledRunResult {
  run_id: string;
  status: 'completed' | 'failed' | 'skipped';
  message: string;
  result?: DqRunJobResult | SuiteValidation;
}

/**
 * One firing of a DQ schedule: plans what the schedule covers now, then runs it as a child workflow — the dq run
 * workflow for tables (results under run ids `<this workflow id>-<n>`), a suite validation for a suite. A run with
 * a failed table, a failed suite or an error is an incident (event + notification) and ends failed.
 */
export async function dqScheduledRunWorkflow(input: { scheduleId: string }): Promise<DqScheduledRunResult> {
  const runId = workflowInfo().workflowId;
  const fail = async (error: string): Promise<DqScheduledRunResult> => {
    await dqScheduledRunFailed({ scheduleId: input.scheduleId, runId, error });
    return { run_id: runId, status: 'failed', message: error };
  };
  try {
    const plan = await dqPlanScheduledRun({ scheduleId: input.scheduleId, runId });
    if (plan.kind === 'none') return fail(plan.reason);
    if (plan.kind === 'suite') {
      const v = (await executeChild(dqOperationWorkflow, {
        workflowId: `${runId}-suite`,
        args: [{ kind: 'suite_validate', suite: plan.suite }],
      })) as SuiteValidation;
      if (!v.success) {
        const r = await fail(`suite ${v.suite_name}: ${v.statistics.unsuccessful_expectations} expectation(s) not met`);
        return { ...r, result: v };
      }
      return { run_id: runId, status: 'completed', message: `suite ${v.suite_name}: every expectation met`, result: v };
    }
    const result = await executeChild(dqRunWorkflow, { workflowId: `${runId}-run`, args: [plan.input] });
    const failed = result.results.filter((r) => r.status !== 'completed');
    if (failed.length) {
      const r = await fail(failed.map((f) => f.error ?? `${f.table_fqn} failed`).join('; '));
      return { ...r, result };
    }
    return { run_id: runId, status: 'completed', message: `${result.tables_checked} table(s) checked`, result };
  } catch (err) {
    return fail(rootCauseMessage(err));
  }
}
