import { CancellationScope, getExternalWorkflowHandle, isCancellation, proxyActivities } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import type { RecommendationActivities, RefreshResult } from '../../activities/finops/recommendations';
import type { ApplyOutcome } from '../../activities/finops/recommendation-apply';
import type { JobActivities } from '../../activities/jobs';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import type { RecommendationApplyJobInput, RecommendationRefreshJobInput } from '../../schemas/finops-recommendations';
import { warehouseCommandSignal, warehouseWorkflowId } from '../warehouses/definitions';

const { refreshRecommendations } = proxyActivities<RecommendationActivities>({
  // Scans every table's storage metrics: heartbeats per table.
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '2 minutes',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES] },
});
const { applyRecommendation, finishRecommendationApply } = proxyActivities<RecommendationActivities>({
  startToCloseTimeout: '6 hours',
  retry: { maximumAttempts: 3, initialInterval: '1 second', nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES] },
});
const { appendJobEvents, reportJobProgress } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5 },
});

/**
 * Refreshes the cost recommendations (job type `recommendations`, and the daily Schedule, which runs it without a
 * job: `jobId` null). What it found, opened, reopened and resolved is the job's result.
 */
export async function recommendationsRefreshWorkflow(
  input: RecommendationRefreshJobInput,
): Promise<{ status: 'completed'; error: null } & RefreshResult> {
  if (input.jobId) await reportJobProgress(input.jobId, { completed: 0, total: 1 });
  const r = await refreshRecommendations();
  if (input.jobId) {
    await appendJobEvents(input.jobId, [
      ...r.notes.map((message) => ({ event: 'warning' as const, message, level: 'warn' as const })),
      {
        event: 'status' as const,
        message: `${r.found} recommendation(s) found (${r.opened} new, ${r.reopened} reopened), ${r.resolved} resolved; ${r.tables_scanned} table(s) and ${r.warehouses} warehouse(s) looked at`,
        data: { by_type: r.by_type },
      },
    ]);
    await reportJobProgress(input.jobId, { completed: 1, total: 1 });
  }
  return { status: 'completed', error: null, ...r };
}

/**
 * Applies one recommendation (job type `recommendation_apply`): runs its action, tells an edited warehouse's
 * workflow, and records the end — applied with the result, or open again with the error.
 */
export async function recommendationApplyWorkflow(input: RecommendationApplyJobInput) {
  const id = input.recommendationId;
  try {
    const out: ApplyOutcome = await applyRecommendation({ id });
    if (out.warehouse_id) {
      try {
        await getExternalWorkflowHandle(warehouseWorkflowId(out.warehouse_id)).signal(warehouseCommandSignal, 'edit');
      } catch {
        // No workflow runs for a stopped, never-started warehouse: its next start reads the edited settings.
      }
    }
    await finishRecommendationApply({ id, ok: true, result: out });
    await appendJobEvents(input.jobId, [{ event: 'status', message: `applied: ${out.ran}`, data: { ...out } }]);
    return { status: 'completed' as const, error: null, recommendation_id: id, ...out };
  } catch (err) {
    const error = rootCauseMessage(err);
    await CancellationScope.nonCancellable(() => finishRecommendationApply({ id, ok: false, error }));
    if (isCancellation(err)) throw err;
    return { status: 'failed' as const, error, recommendation_id: id };
  }
}
