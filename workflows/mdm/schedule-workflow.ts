import { proxyActivities } from '@temporalio/workflow';
import type { MdmScheduleActivities } from '../../activities/mdm/scheduled';

const { mdmScheduledSubmit } = proxyActivities<MdmScheduleActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 5 },
});
const { mdmScheduledAwait } = proxyActivities<MdmScheduleActivities>({
  startToCloseTimeout: '24 hours',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

export const MDM_SCHEDULED_WORKFLOW_TYPE = 'mdmScheduledRunWorkflow';

/**
 * One firing of a model's `schedule` (Schedule `mdm-model-<entity_type>`): an ingest job of every source, then,
 * once it completed, a match job (incremental after the first completed run). A step that fails ends the firing.
 */
export async function mdmScheduledRunWorkflow(input: {
  entityType: string;
}): Promise<{ ingest_job_id: string; match_job_id: string }> {
  const ingest = await mdmScheduledSubmit({ entityType: input.entityType, step: 'ingest' });
  await mdmScheduledAwait({ jobId: ingest });
  const match = await mdmScheduledSubmit({ entityType: input.entityType, step: 'match' });
  await mdmScheduledAwait({ jobId: match });
  return { ingest_job_id: ingest, match_job_id: match };
}
