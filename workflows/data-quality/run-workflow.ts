import { ActivityCancellationType, isCancellation, proxyActivities } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import type { DataQualityActivities, DqTableOutcome } from '../../activities/data-quality';
import type { JobActivities } from '../../activities/jobs';
import type { DqRunInput } from '../../schemas/data-quality';

const retry = {
  maximumAttempts: 3,
  initialInterval: 1000,
  backoffCoefficient: 2,
  nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
};
// One activity per table: a table scan is one long read, heartbeated; WAIT_CANCELLATION_COMPLETED so a
// cancelled run reports cancelled only once its scan has stopped.
const { dqRunTable } = proxyActivities<DataQualityActivities>({
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '30 seconds',
  retry,
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
});
const { appendJobEvents, reportJobProgress } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5 },
});

export interface DqRunJobResult {
  status: 'completed' | 'failed';
  error: string | null;
  scope: string;
  tables_checked: number;
  passed: number;
  failed: number;
  results: DqTableOutcome[];
}

/** A table passes when its run completed with pass_rate ≥ this (percent). */
export const DQ_PASS_THRESHOLD = 95;

/**
 * A data-quality run (job type `dq`): one activity per table, at most `parallelism` tables at once, each
 * scanning its table once and storing its result and failure samples. The job fails only when every table
 * failed; a table that failed is reported with its error and the others still run.
 */
export async function dqRunWorkflow(input: DqRunInput): Promise<DqRunJobResult> {
  const total = input.tables.length;
  await reportJobProgress(input.jobId, { completed: 0, total, tables: `0/${total}` });
  const results: DqTableOutcome[] = new Array(total);
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < total) {
      const i = next++;
      const t = input.tables[i];
      await appendJobEvents(input.jobId, [
        { event: 'table_started', message: `checking ${t.tableFqn}`, data: { table: t.tableFqn } },
      ]);
      const outcome = await dqRunTable({
        jobId: input.jobId,
        runId: t.runId,
        tableFqn: t.tableFqn,
        checkIds: t.checkIds,
        executedBy: input.executedBy,
        warehouseId: input.warehouseId,
      }).catch((err: unknown) => {
        // The activity records logical failures itself; this is a table whose retries ran out.
        if (isCancellation(err)) throw err;
        return failedOutcome(t.runId, t.tableFqn, rootCauseMessage(err));
      });
      results[i] = outcome;
      done++;
      const message =
        outcome.status === 'completed'
          ? `${t.tableFqn}: pass rate ${outcome.pass_rate}% (${outcome.invalid_rows} of ${outcome.total_rows} rows invalid)`
          : `${t.tableFqn}: ${outcome.error}`;
      await appendJobEvents(input.jobId, [
        {
          event: 'table_finished',
          message,
          level: outcome.status === 'completed' ? 'info' : 'error',
          data: { table: t.tableFqn, status: outcome.status, run_id: t.runId, pass_rate: outcome.pass_rate },
        },
      ]);
      await reportJobProgress(input.jobId, { completed: done, total, tables: `${done}/${total}` });
    }
  };
  await Promise.all(Array.from({ length: Math.min(input.parallelism, total) }, lane));
  const failed = results.filter((r) => r.status !== 'completed');
  const passed = results.filter((r) => r.status === 'completed' && r.pass_rate >= DQ_PASS_THRESHOLD).length;
  const allFailed = total > 0 && failed.length === total;
  return {
    status: allFailed ? 'failed' : 'completed',
    error: allFailed ? (failed[0]?.error ?? 'every table failed') : null,
    scope: input.scope,
    tables_checked: total,
    passed,
    failed: total - passed,
    results,
  };
}

function failedOutcome(runId: string, tableFqn: string, error: string): DqTableOutcome {
  return {
    run_id: runId,
    table_fqn: tableFqn,
    status: 'failed',
    error,
    total_rows: 0,
    valid_rows: 0,
    invalid_rows: 0,
    warning_rows: 0,
    pass_rate: 0,
    checks_applied: 0,
  };
}
