import { MdmIngestInputSchema, type MdmIngestInput } from '../../schemas/mdm-runs';
import type { JobTypeDefinition } from '../jobs/registry';

/**
 * MDM ingests are jobs of type `mdm_ingest`: the kernel gives them a queue, status, progress, run log, cancel,
 * notification and audit row. One runs at a time (every ingest writes the same source_records tables).
 */
export const MDM_INGEST_LIMITS = { maxConcurrent: 1, maxQueueSize: 20, requestTimeoutMinutes: 360 };

export const mdmIngestJobType: JobTypeDefinition<MdmIngestInput> = {
  type: 'mdm_ingest',
  workflowType: 'mdmIngestWorkflow',
  inputSchema: MdmIngestInputSchema,
  limits: () => MDM_INGEST_LIMITS,
  describe: (row) => ({ scope: (row.request as { entity_type?: string } | null)?.entity_type ?? null }),
};
