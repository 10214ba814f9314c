import { DqRunInputSchema, type DqRunInput } from '../../schemas/data-quality';
import type { JobTypeDefinition } from '../jobs/registry';

/**
 * Data-quality runs are jobs of type `dq` (ids `dq-YYYYMMDD-HHMMSS-xxxx`): the kernel gives them a queue,
 * status, progress, run log, cancel, notification and audit row. A run scans tables read-only, so several
 * run at once; the limits are fixed here (the configuration has no dq section).
 */
export const DQ_LIMITS = { maxConcurrent: 4, maxQueueSize: 100, requestTimeoutMinutes: 360 };

export const dqJobType: JobTypeDefinition<DqRunInput> = {
  type: 'dq',
  workflowType: 'dqRunWorkflow',
  inputSchema: DqRunInputSchema,
  limits: () => DQ_LIMITS,
  describe: (row) => ({ scope: (row.request as { table_fqn?: string } | null)?.table_fqn ?? null }),
};
