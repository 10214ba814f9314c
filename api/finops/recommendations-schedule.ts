import { ScheduleAlreadyRunning } from '@temporalio/client';
import type { AppDeps } from '../deps';

export const RECOMMENDATIONS_SCHEDULE_ID = 'finops-recommendations';

/**
 * The daily Temporal Schedule that refreshes the recommendations (03:17 UTC, after the night's hourly ledger
 * derivation). Made by the first refresh request; an existing one is left as it is. Its runs are not kernel jobs
 * (no one waits on them): their result is the Schedule's last action, and the findings are in the store.
 */
export async function ensureRecommendationsSchedule(deps: AppDeps): Promise<void> {
  if (!deps.temporal) return;
  try {
    await deps.temporal.client.schedule.create({
      scheduleId: RECOMMENDATIONS_SCHEDULE_ID,
      spec: { calendars: [{ hour: 3, minute: 17 }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'recommendationsRefreshWorkflow',
        workflowId: RECOMMENDATIONS_SCHEDULE_ID,
        taskQueue: deps.config.temporal.task_queue,
        args: [{ jobId: null }],
      },
      policies: { overlap: 'SKIP', catchupWindow: '1 hour' },
      memo: { kind: 'recommendations-refresh' },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
