import { z } from 'zod';
import type { JobTypeDefinition } from '../jobs/registry';
import { FANOUT_JOB_TYPE, FANOUT_WORKFLOW_TYPE, type FanoutJobInput } from '../../workflows/fanout/definitions';

/** The fan-out input as the queue carries it (built and validated by api/fanout/service.ts). */
const fanoutInputSchema = z.custom<FanoutJobInput>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    typeof (v as FanoutJobInput).jobId === 'string' &&
    Array.isArray((v as FanoutJobInput).children) &&
    (v as FanoutJobInput).children.length > 0 &&
    (v as FanoutJobInput).children.every((c) => c.target >= 0 && c.target < (v as FanoutJobInput).clone.targets.length),
  'a fan-out input with a job id and one child per target',
);

/**
 * Fan-out clones are jobs of type `clone_fanout` (ids `clone_fanout-YYYYMMDD-HHMMSS-xxxx`): the kernel queues,
 * cancels, times out and records them with the clone limits; each target is a child clone job of its own.
 */
export const fanoutJobType: JobTypeDefinition<FanoutJobInput> = {
  type: FANOUT_JOB_TYPE,
  workflowType: FANOUT_WORKFLOW_TYPE,
  inputSchema: fanoutInputSchema,
  limits: (config) => ({
    maxConcurrent: config.clone.max_concurrent,
    maxQueueSize: config.clone.max_queue_size,
    requestTimeoutMinutes: config.clone.request_timeout_minutes,
  }),
  describe: (row) => ({
    source_catalog: row.sourceCatalog,
    destination_catalog: row.destinationCatalog,
    clone_type: row.cloneType,
    child_job_ids: (row.request as { child_job_ids?: string[] } | null)?.child_job_ids ?? [],
  }),
};
