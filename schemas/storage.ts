import { z } from 'zod';
import { IdentifierSchema } from './common';

/**
 * Storage shapes, written once: the storage metrics of a catalog (the specification's "Storage metrics result"),
 * OPTIMIZE / VACUUM jobs and the predictive-optimization check.
 */

/** A name or a `*` glob matched case-insensitively (`sales`, `sales_*`, `*_raw`). */
const NameFilterSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9_\-*]+$/, 'letters, digits, _, - and * only')
  .meta({ description: 'a name, or a glob with * (case-insensitive)', example: 'sales*' });

export const StorageMetricsBodySchema = z.object({
  source_catalog: IdentifierSchema,
  schema_filter: NameFilterSchema.optional(),
  table_filter: NameFilterSchema.optional(),
});
export type StorageMetricsBody = z.infer<typeof StorageMetricsBodySchema>;

const bytesFields = {
  total_bytes: z.number(),
  total_display: z.string(),
  active_bytes: z.number(),
  active_display: z.string(),
  active_pct: z.number(),
  vacuumable_bytes: z.number(),
  vacuumable_display: z.string(),
  vacuumable_pct: z.number(),
  time_travel_bytes: z.number(),
  time_travel_display: z.string(),
  time_travel_pct: z.number(),
  num_total_files: z.number(),
};

export const TableStorageSchema = z
  .object({
    schema_name: z.string(),
    table_name: z.string(),
    fqn: z.string(),
    format: z.string().nullable(),
    ...bytesFields,
    num_active_files: z.number(),
    num_vacuumable_files: z.number().nullable(),
    num_time_travel_files: z.number().nullable(),
    retention_hours: z.number().nullable(),
    exact: z.boolean().meta({ description: 'false where a figure is not available (then it is 0 and note says so)' }),
    note: z.string().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'TableStorage' });
export type TableStorage = z.infer<typeof TableStorageSchema>;

export const SchemaStorageSchema = z.object({ schema_name: z.string(), num_tables: z.number(), ...bytesFields });

export const StorageMetricsResultSchema = z
  .object({
    catalog: z.string(),
    num_schemas: z.number(),
    num_tables: z.number(),
    ...bytesFields,
    exact: z.boolean(),
    notes: z.array(z.string()),
    tables: z.array(TableStorageSchema),
    schema_summaries: z.array(SchemaStorageSchema),
    top_tables_by_vacuumable: z.array(TableStorageSchema),
    top_tables_by_total: z.array(TableStorageSchema),
  })
  .meta({ id: 'StorageMetricsResult' });
export type StorageMetricsResult = z.infer<typeof StorageMetricsResultSchema>;

export const TableSelectorSchema = z.object({ schema: IdentifierSchema, table: IdentifierSchema });

/**
 * Tables one OPTIMIZE/VACUUM job works on at most: each table is a few workflow events, and a job's history must
 * stay far below Temporal's limits. A larger catalog is maintained schema by schema (several jobs).
 */
export const MAX_MAINTENANCE_TABLES = 1000;

/** Delta's default: VACUUM refuses a shorter retention unless told the risk is understood. */
export const MIN_SAFE_RETENTION_HOURS = 168;

const maintenanceBase = {
  source_catalog: IdentifierSchema,
  tables: z
    .array(TableSelectorSchema)
    .min(1)
    .max(MAX_MAINTENANCE_TABLES)
    .optional()
    .meta({
      description: `the tables to work on (at most ${MAX_MAINTENANCE_TABLES}); omit for every table of the catalog`,
    }),
  dry_run: z.boolean().default(false),
  /** How long the request waits for the job's result before answering 202 with the job id (default 600). */
  wait_seconds: z.number().int().min(0).max(3600).default(600),
};

export const OptimizeBodySchema = z.object(maintenanceBase);
export type OptimizeBody = z.infer<typeof OptimizeBodySchema>;

export const VacuumBodySchema = z
  .object({
    ...maintenanceBase,
    retention_hours: z.number().int().min(0).max(876_000).default(MIN_SAFE_RETENTION_HOURS),
    /** Required to vacuum with retention_hours below 168 (Delta's retentionDurationCheck). */
    allow_short_retention: z.boolean().default(false),
  })
  .superRefine((b, ctx) => {
    if (b.retention_hours < MIN_SAFE_RETENTION_HOURS && !b.allow_short_retention)
      ctx.addIssue({
        code: 'custom',
        path: ['retention_hours'],
        message:
          `${b.retention_hours} hours is below the safe minimum of ${MIN_SAFE_RETENTION_HOURS}: readers of older ` +
          'versions and running writers may lose files; set allow_short_retention: true to do it anyway',
      });
  });
export type VacuumBody = z.infer<typeof VacuumBodySchema>;

export const MaintenanceOperationSchema = z.enum(['optimize', 'vacuum']);
export type MaintenanceOperation = z.infer<typeof MaintenanceOperationSchema>;

/** The input of a `storage` job (workflow storageMaintenanceWorkflow). */
export const StorageJobInputSchema = z.object({
  jobId: z.string(),
  operation: MaintenanceOperationSchema,
  catalog: z.string(),
  tables: z.array(TableSelectorSchema),
  retentionHours: z.number().nullable(),
  dryRun: z.boolean(),
  parallelism: z.number().int().min(1).max(16),
});
export type StorageJobInput = z.infer<typeof StorageJobInputSchema>;

export const MaintenanceTableResultSchema = z.object({
  schema: z.string(),
  table: z.string(),
  status: z.enum(['succeeded', 'failed', 'dry_run']),
  error: z.string().nullable(),
  files_removed: z.number(),
  files_added: z.number(),
  bytes_removed: z.number(),
  bytes_added: z.number(),
  /** VACUUM: the files deleted (or that would be, on a dry run), relative to the table folder; at most 1,000. */
  files: z.array(z.string()),
});
export type MaintenanceTableResult = z.infer<typeof MaintenanceTableResultSchema>;

export const MaintenanceResultSchema = z
  .object({
    job_id: z.string(),
    status: z.string(),
    operation: MaintenanceOperationSchema,
    catalog: z.string(),
    total: z.number(),
    succeeded: z.number(),
    failed: z.number(),
    retention_hours: z.number().nullable(),
    dry_run: z.boolean(),
    files_removed: z.number(),
    bytes_removed: z.number(),
    results: z.array(MaintenanceTableResultSchema),
  })
  .meta({ id: 'MaintenanceResult' });
export type MaintenanceResult = z.infer<typeof MaintenanceResultSchema>;

export const MaintenanceAcceptedSchema = z.object({ job_id: z.string(), status: z.string(), message: z.string() });

export const PredictiveBodySchema = z.object({
  source_catalog: IdentifierSchema,
  schema_filter: NameFilterSchema.optional(),
  table_filter: NameFilterSchema.optional(),
});
export type PredictiveBody = z.infer<typeof PredictiveBodySchema>;

export const PredictiveTableSchema = z.object({
  schema_name: z.string(),
  table_name: z.string(),
  fqn: z.string(),
  predictive_optimization: z
    .enum(['enabled', 'disabled', 'inherited', 'unknown'])
    .meta({ description: 'the table property, or inherited from its schema or catalog' }),
  inherited_from: z.string().nullable(),
  num_active_files: z.number(),
  avg_file_bytes: z.number(),
  vacuumable_pct: z.number(),
  recommendation: z.enum(['none', 'optimize', 'vacuum', 'optimize_and_vacuum']),
  reason: z.string(),
});

export const PredictiveResultSchema = z
  .object({
    catalog: z.string(),
    catalog_setting: z.enum(['enabled', 'disabled', 'inherited', 'unknown']),
    platform: z.enum(['local', 'databricks']),
    tables: z.array(PredictiveTableSchema),
    summary: z.object({
      tables: z.number(),
      enabled: z.number(),
      recommend_optimize: z.number(),
      recommend_vacuum: z.number(),
    }),
  })
  .meta({ id: 'PredictiveOptimizationResult' });
export type PredictiveResult = z.infer<typeof PredictiveResultSchema>;
