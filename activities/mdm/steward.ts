import { ScheduleNotFoundError, type Client } from '@temporalio/client';
import type { Store } from '../../store/db';
import { listCases, markOverdueNotified } from '../../store/mdm/cases';
import { addNotification } from '../../store/notifications/repo';

/** The daily Temporal Schedule that notifies overdue stewardship cases. */
export const OVERDUE_SCHEDULE_ID = 'mdm-stewardship-overdue';
export const OVERDUE_WORKFLOW = 'mdmStewardshipOverdueWorkflow';

/**
 * Stewardship activities: one notification (notifications domain, type `mdm_case_overdue`) per open case past its
 * due date at `now`, once per case.
 */
export function createMdmStewardActivities(deps: { store: Store }) {
  return {
    async mdmNotifyOverdueCases(req: { now: string }): Promise<{ notified: string[] }> {
      const now = new Date(req.now);
      const due = await listCases(deps.store.db, { status: 'open', dueBefore: now }, 10_000);
      const fresh = due.filter((c) => !c.overdueNotifiedAt);
      for (const c of fresh)
        await addNotification(deps.store.db, {
          type: 'mdm_case_overdue',
          status: 'overdue',
          message:
            `Stewardship case ${c.id} (${c.type}, ${c.entityType}: ${c.records.map((r) => `${r.system}:${r.record_id}`).join(', ')}) ` +
            `was due ${c.dueAt.toISOString()}${c.assignedTo ? `; assigned to ${c.assignedTo}` : '; unassigned'}`,
          jobId: c.id,
        });
      await markOverdueNotified(
        deps.store.db,
        fresh.map((c) => c.id),
        now,
      );
      return { notified: fresh.map((c) => c.id) };
    },
  };
}

export type MdmStewardActivities = ReturnType<typeof createMdmStewardActivities>;

/** Creates the daily overdue-case Schedule (07:00 UTC) unless it exists; the worker calls this when it starts. */
export async function ensureOverdueSchedule(client: Client, taskQueue: string): Promise<void> {
  try {
    await client.schedule.getHandle(OVERDUE_SCHEDULE_ID).describe();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
    await client.schedule
      .create({
        scheduleId: OVERDUE_SCHEDULE_ID,
        spec: { cronExpressions: ['0 7 * * *'] },
        action: {
          type: 'startWorkflow',
          workflowType: OVERDUE_WORKFLOW,
          workflowId: OVERDUE_SCHEDULE_ID,
          taskQueue,
          args: [],
        },
        policies: { overlap: 'SKIP', catchupWindow: '1 day' },
        memo: { kind: 'mdm_stewardship_overdue' },
      })
      .catch((e: unknown) => {
        // Two workers starting at once: the other one created it.
        if (!/already/i.test((e as Error).message)) throw e;
      });
  }
}
