import { PipelineJobInputSchema, type PipelineJobInput } from '../../schemas/pipeline';
import { PIPELINE_WORKFLOW_TYPE } from '../../workflows/pipeline/definitions';
import type { JobTypeDefinition } from '../jobs/registry';

/**
 * Pipeline runs are jobs of type `pipeline` (ids `pipeline-YYYYMMDD-HHMMSS-xxxx`, the run id): the kernel gives
 * them a queue, status, run log, cancel, timeout, notification and audit row. A run mostly waits for its child
 * jobs (which have their own queues), so several run at once.
 */
export const PIPELINE_LIMITS = { maxConcurrent: 10, maxQueueSize: 100, requestTimeoutMinutes: 7 * 24 * 60 };

export const pipelineJobType: JobTypeDefinition<PipelineJobInput> = {
  type: 'pipeline',
  workflowType: PIPELINE_WORKFLOW_TYPE,
  inputSchema: PipelineJobInputSchema,
  limits: () => PIPELINE_LIMITS,
  describe: (row) => ({ pipeline_id: (row.request as { pipeline_id?: string } | null)?.pipeline_id ?? null }),
};
