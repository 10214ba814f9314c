import { ScheduleNotFoundError } from '@temporalio/client';
import type { AppDeps } from '../deps';
import { scheduleSpecOf } from '../schedules/service';

/** The Temporal Schedule of a contract's validation: one per contract, `contract-validate-<name>`. */
export const contractScheduleId = (name: string) => `contract-validate-${name}`;

/**
 * Makes the contract's Temporal Schedule match its `validationSchedule` (cron): created or updated when set,
 * deleted when not (or when the contract is archived). The action validates the newest published version on every
 * attached table; failures go to the enforcement endpoint.
 */
export async function syncContractSchedule(deps: AppDeps, name: string, cron: string | null): Promise<void> {
  if (!deps.temporal) return;
  const client = deps.temporal.client;
  const handle = client.schedule.getHandle(contractScheduleId(name));
  if (!cron) {
    await handle.delete().catch((err: unknown) => {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    });
    return;
  }
  const spec = scheduleSpecOf({ cron }, 'body.document.customProperties');
  const action = {
    type: 'startWorkflow' as const,
    workflowType: 'contractValidationWorkflow',
    workflowId: contractScheduleId(name),
    taskQueue: deps.config.temporal.task_queue,
    args: [{ name, trigger: 'schedule', by: 'schedule' }],
  };
  try {
    await handle.update((prev) => ({ ...prev, spec, action }));
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
    await client.schedule.create({
      scheduleId: contractScheduleId(name),
      spec,
      action,
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
      memo: { name, kind: 'contract' },
    });
  }
}
