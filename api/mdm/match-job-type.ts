import { MdmMatchInputSchema, type MdmMatchInput } from '../../schemas/mdm-runs';
import type { JobTypeDefinition } from '../jobs/registry';

/** Match runs are jobs of type `mdm_match`; one entity type runs one at a time (a second is a 409 before this). */
export const MDM_MATCH_LIMITS = { maxConcurrent: 2, maxQueueSize: 20, requestTimeoutMinutes: 720 };

export const mdmMatchJobType: JobTypeDefinition<MdmMatchInput> = {
  type: 'mdm_match',
  workflowType: 'mdmMatchWorkflow',
  inputSchema: MdmMatchInputSchema,
  limits: () => MDM_MATCH_LIMITS,
  describe: (row) => ({ scope: (row.request as { entity_type?: string } | null)?.entity_type ?? null }),
};
