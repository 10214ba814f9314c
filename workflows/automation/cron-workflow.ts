import { continueAsNew, executeChild, ParentClosePolicy, sleep, WorkflowIdReusePolicy } from '@temporalio/workflow';
import { nextCronFire } from '../../activities/automation/logic/cron-next';
import { scheduledExecutionId } from './definitions';
import { playbookScheduledWorkflow } from './playbook-workflow';

export interface PlaybookCronInput {
  playbookId: string;
  cron: string;
  timezone?: string;
  /** Firings before continue-as-new (history stays small). */
  firingsPerRun?: number;
}

/**
 * The producer of a schedule-triggered playbook (`playbook-cron-<id>`, started when the playbook is saved enabled,
 * terminated when it is disabled, changed or deleted): a durable timer to the cron's next instant (croner, in the
 * trigger's timezone, from the workflow clock), then that firing's execution `playbook-<id>-schedule-<instant>`
 * (REJECT_DUPLICATE: a replay or a restarted loop never runs one instant twice), awaited, so a firing that comes
 * while the previous one still runs is skipped as a Schedule's overlap SKIP would. Durable timers, unlike a
 * Temporal Schedule, also run on the time-skipping test server, so the trigger is tested there as it runs.
 */
export async function playbookCronWorkflow(input: PlaybookCronInput): Promise<void> {
  const firings = input.firingsPerRun ?? 100;
  for (let n = 0; n < firings; n++) {
    const now = new Date().getTime(); // the workflow clock (deterministic on replay)
    const next = nextCronFire(input.cron, input.timezone, new Date(now));
    if (!next) return;
    await sleep(Math.max(1, next.getTime() - now));
    const scheduledAt = next.toISOString();
    try {
      await executeChild(playbookScheduledWorkflow, {
        workflowId: scheduledExecutionId(input.playbookId, scheduledAt),
        args: [{ playbookId: input.playbookId, scheduledAt }],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    } catch {
      // A failed or already-run execution is recorded by the execution itself; the next firing still comes.
    }
  }
  await continueAsNew<typeof playbookCronWorkflow>(input);
}
