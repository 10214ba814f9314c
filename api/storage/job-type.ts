import { StorageJobInputSchema, type StorageJobInput } from '../../schemas/storage';
import type { JobTypeDefinition } from '../jobs/registry';

/**
 * OPTIMIZE and VACUUM run as jobs of type `storage` (ids `storage-YYYYMMDD-HHMMSS-xxxx`, workflow
 * storageMaintenanceWorkflow): queue, status, progress, run log, cancel, notification and audit row from the kernel.
 * Both rewrite or delete files, so two run at once; the limits are fixed (the configuration has no storage section).
 */
export const STORAGE_LIMITS = { maxConcurrent: 2, maxQueueSize: 50, requestTimeoutMinutes: 360 };

export const storageJobType: JobTypeDefinition<StorageJobInput> = {
  type: 'storage',
  workflowType: 'storageMaintenanceWorkflow',
  inputSchema: StorageJobInputSchema,
  limits: () => STORAGE_LIMITS,
  describe: (row) => {
    const r = (row.request ?? {}) as { operation?: string; source_catalog?: string };
    return { operation: r.operation ?? null, scope: r.source_catalog ?? null };
  },
};
