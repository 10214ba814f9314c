import { ScheduleNotFoundError } from '@temporalio/client';
import type { ScheduleSpec } from '@temporalio/client';
import type { MdmServices } from '../../activities/mdm/scheduled';
import type { AppDeps } from '../deps';
import { scheduleSpecOf } from '../schedules/service';
import { submitIngest, submitMatch } from './submit';

/** The workflow each firing starts (workflows/mdm/schedule-workflow.ts). */
const MDM_SCHEDULED_WORKFLOW_TYPE = 'mdmScheduledRunWorkflow';

/** The Temporal Schedule of a model's `schedule`: one per entity type. */
export const mdmModelScheduleId = (entityType: string) => `mdm-model-${entityType}`;

/** The Schedule's spec of a model's cron (a 4xx naming `body.schedule` when Temporal cannot read it). */
export const modelScheduleSpec = (cron: string): ScheduleSpec => scheduleSpecOf({ cron }, 'body.schedule');

/**
 * Makes the entity type's Schedule match its model: created or updated when `schedule` is set, deleted when it is
 * not. Each firing runs mdmScheduledRunWorkflow (ingest, then match); a firing while the last one runs is skipped.
 */
export async function syncModelSchedule(deps: AppDeps, entityType: string, cron: string | null): Promise<void> {
  if (!deps.temporal) return;
  const client = deps.temporal.client;
  const handle = client.schedule.getHandle(mdmModelScheduleId(entityType));
  if (!cron) {
    await handle.delete().catch((err: unknown) => {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    });
    return;
  }
  const spec = modelScheduleSpec(cron);
  const action = {
    type: 'startWorkflow' as const,
    workflowType: MDM_SCHEDULED_WORKFLOW_TYPE,
    workflowId: mdmModelScheduleId(entityType),
    taskQueue: deps.config.temporal.task_queue,
    args: [{ entityType }],
  };
  try {
    await handle.update((prev) => ({ ...prev, spec, action }));
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
    await client.schedule.create({
      scheduleId: mdmModelScheduleId(entityType),
      spec,
      action,
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
      memo: { entity_type: entityType, kind: 'mdm_model' },
    });
  }
}

/** What a model's Schedule submits, through the same services as the routes (wired in workers/stack.ts). */
export function mdmServices(deps: AppDeps): MdmServices {
  return {
    submitIngest: async (entityType) => submitIngest(deps, { entity_type: entityType }),
    submitMatch: async (entityType) => submitMatch(deps, { entity_type: entityType, retrain: true, seed: 42 }),
  };
}
