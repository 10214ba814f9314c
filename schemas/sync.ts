import { z } from 'zod';
import { cloneTypeSchema } from './clone';
import { IdentifierSchema } from './common';

/**
 * Sync shapes, written once: the incremental check and sync of one schema, the two-way catalog sync, the
 * estimate with its `selective` block, and the inputs of the `incremental_sync` and `sync` jobs.
 */

const catalogs = {
  source_catalog: IdentifierSchema,
  destination_catalog: IdentifierSchema,
};

export const IncrementalCheckBodySchema = z
  .object({
    ...catalogs,
    schema_name: IdentifierSchema,
    warehouse_id: IdentifierSchema.optional(),
    clone_type: cloneTypeSchema.default('DEEP'),
    dry_run: z.boolean().default(false),
  })
  .strict();
export type IncrementalCheckBody = z.infer<typeof IncrementalCheckBodySchema>;

export const IncrementalSyncBodySchema = IncrementalCheckBodySchema.extend({
  serverless: z.boolean().default(false),
  volume: IdentifierSchema.optional(),
}).strict();
export type IncrementalSyncBody = z.infer<typeof IncrementalSyncBodySchema>;

export const TableSyncStatusSchema = z
  .object({
    table: z.string(),
    reason: z.enum(['new', 'source_changed', 'schema_changed', 'in_sync']),
    needs_sync: z.boolean(),
    recorded_version: z.number().int().nullable(),
    current_version: z.number().int().nullable(),
    change_rows: z.number().int().nullable(),
    path: z.enum(['merge', 'copy']).nullable(),
    merge_keys: z.array(z.string()).nullable(),
    size_bytes: z.number().nullable(),
    detail: z.string(),
  })
  .meta({ id: 'TableSyncStatus' });

export const IncrementalCheckResultSchema = z
  .object({
    schema: z.string(),
    tables_needing_sync: z.number().int(),
    tables: z.array(TableSyncStatusSchema),
  })
  .meta({ id: 'IncrementalCheckResult' });

export const SyncJobAcceptedSchema = z
  .object({ job_id: z.string(), status: z.string(), message: z.string() })
  .meta({ id: 'SyncJobAccepted' });

export const SyncBodySchema = z
  .object({
    ...catalogs,
    dry_run: z.boolean().default(false),
    drop_extra: z.boolean().default(false),
    include_schemas: z.array(IdentifierSchema).max(1000).optional(),
    exclude_schemas: z.array(IdentifierSchema).max(1000).optional(),
    clone_type: cloneTypeSchema.default('DEEP'),
    warehouse_id: IdentifierSchema.optional(),
  })
  .strict();
export type SyncBody = z.infer<typeof SyncBodySchema>;

export const SyncActionSchema = z
  .object({
    action: z.enum([
      'create_schema',
      'clone_table',
      'resync_table',
      'create_view',
      'create_function',
      'create_volume',
      'drop_schema',
      'drop_table',
      'drop_view',
      'drop_function',
      'drop_volume',
      'keep_extra',
    ]),
    kind: z.enum(['schema', 'table', 'view', 'function', 'volume']),
    schema: z.string(),
    name: z.string().nullable(),
    /** For tables: merge or copy. */
    path: z.enum(['merge', 'copy']).nullable(),
    detail: z.string(),
  })
  .meta({ id: 'SyncAction' });
export type SyncAction = z.infer<typeof SyncActionSchema>;

export const SyncPlanSchema = z
  .object({
    source_catalog: z.string(),
    destination_catalog: z.string(),
    drop_extra: z.boolean(),
    schemas: z.array(z.string()),
    actions: z.array(SyncActionSchema),
    counts: z.record(z.string(), z.number().int()),
  })
  .meta({ id: 'SyncPlan' });
export type SyncPlan = z.infer<typeof SyncPlanSchema>;

export const SyncDryRunResultSchema = SyncPlanSchema.extend({ dry_run: z.literal(true) }).meta({
  id: 'SyncDryRunResult',
});

export const EstimateBodySchema = z
  .object({
    source_catalog: IdentifierSchema,
    destination_catalog: IdentifierSchema.optional(),
    include_schemas: z.array(IdentifierSchema).max(1000).optional(),
    warehouse_id: IdentifierSchema.optional(),
  })
  .strict();
export type EstimateBody = z.infer<typeof EstimateBodySchema>;

export const SelectiveBlockSchema = z
  .object({
    target_exists: z.literal(true),
    tables_to_clone: z.number().int(),
    tables_in_sync: z.number().int(),
    savings_pct: z.number(),
    recommended: z.enum(['SELECTIVE', 'FULL']),
    size_bytes: z.number(),
  })
  .meta({ id: 'SelectiveBlock' });

export const EstimateResultSchema = z
  .object({
    source_catalog: z.string(),
    destination_catalog: z.string().nullable(),
    total_tables: z.number().int(),
    total_bytes: z.number(),
    total_files: z.number().int(),
    tables: z.array(
      z.object({
        schema: z.string(),
        table: z.string(),
        size_bytes: z.number().nullable(),
        num_files: z.number().int().nullable(),
      }),
    ),
    throughput: z.object({
      bytes_per_second: z.number(),
      tables_per_second: z.number(),
      /** `history` (from this installation's finished clone jobs) or `default` (none ran yet). */
      source: z.enum(['history', 'default']),
      jobs: z.number().int(),
    }),
    estimated_seconds: z.object({ DEEP: z.number(), SHALLOW: z.number() }),
    selective: SelectiveBlockSchema.nullable(),
  })
  .meta({ id: 'EstimateResult' });
export type EstimateResult = z.infer<typeof EstimateResultSchema>;

/** The clone job input a sync job hands to the clone workflow for its copies (built and checked by the API). */
const CloneInputSchema = z.record(z.string(), z.unknown());

export const IncrementalSyncInputSchema = z.object({
  jobId: z.string(),
  sourceCatalog: z.string(),
  destinationCatalog: z.string(),
  schema: z.string(),
  dryRun: z.boolean(),
  clone: CloneInputSchema,
});
export type IncrementalSyncInput = z.infer<typeof IncrementalSyncInputSchema>;

export const CatalogSyncInputSchema = z.object({
  jobId: z.string(),
  sourceCatalog: z.string(),
  destinationCatalog: z.string(),
  includeSchemas: z.array(z.string()).nullable(),
  excludeSchemas: z.array(z.string()),
  dropExtra: z.boolean(),
  clone: CloneInputSchema,
});
export type CatalogSyncInput = z.infer<typeof CatalogSyncInputSchema>;
