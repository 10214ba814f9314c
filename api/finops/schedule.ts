import { ScheduleAlreadyRunning } from '@temporalio/client';
import type { AppDeps } from '../deps';

export const LEDGER_SCHEDULE_ID = 'finops-usage-ledger';

/**
 * The hourly Temporal Schedule that derives the usage ledger (a minute past each hour, when the hour just closed
 * became final). Made once, when the first warehouse is created; an existing one is left as it is.
 */
export async function ensureLedgerSchedule(deps: AppDeps): Promise<void> {
  if (!deps.temporal) return;
  try {
    await deps.temporal.client.schedule.create({
      scheduleId: LEDGER_SCHEDULE_ID,
      spec: { intervals: [{ every: '1 hour', offset: '1 minute' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'usageLedgerWorkflow',
        workflowId: LEDGER_SCHEDULE_ID,
        taskQueue: deps.config.temporal.task_queue,
        args: [],
      },
      policies: { overlap: 'SKIP', catchupWindow: '1 hour' },
      memo: { kind: 'usage-ledger' },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
