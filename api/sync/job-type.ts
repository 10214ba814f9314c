import {
  CatalogSyncInputSchema,
  IncrementalSyncInputSchema,
  type CatalogSyncInput,
  type IncrementalSyncInput,
} from '../../schemas/sync';
import type { JobTypeDefinition } from '../jobs/registry';

/**
 * Sync jobs write the destination like a clone (their copies run through the clone workflow), so they take
 * the clone settings' limits (clone.max_concurrent, max_queue_size, request_timeout_minutes), in queues of
 * their own.
 */
const cloneLimits: JobTypeDefinition['limits'] = (config) => ({
  maxConcurrent: config.clone.max_concurrent,
  maxQueueSize: config.clone.max_queue_size,
  requestTimeoutMinutes: config.clone.request_timeout_minutes,
});

const describe: JobTypeDefinition['describe'] = (row) => ({
  source_catalog: row.sourceCatalog,
  destination_catalog: row.destinationCatalog,
  clone_type: row.cloneType,
});

export const incrementalSyncJobType: JobTypeDefinition<IncrementalSyncInput> = {
  type: 'incremental_sync',
  workflowType: 'incrementalSyncWorkflow',
  inputSchema: IncrementalSyncInputSchema,
  limits: cloneLimits,
  describe,
};

export const catalogSyncJobType: JobTypeDefinition<CatalogSyncInput> = {
  type: 'sync',
  workflowType: 'catalogSyncWorkflow',
  inputSchema: CatalogSyncInputSchema,
  limits: cloneLimits,
  describe,
};
