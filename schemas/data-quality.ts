import { z } from 'zod';
import { IdentifierSchema, paginationQuery, PrintableTextSchema } from './common';

/**
 * Data-quality shapes, written once: DQX checks, runs, failure samples, segments, coverage and profiles.
 * Field names follow the specification's "Data quality resources" (and databrickslabs/dqx for checks).
 */

/** `catalog.schema.table`: three identifiers. */
export const TableFqnSchema = z
  .string()
  .min(5)
  .max(800)
  .superRefine((value, ctx) => {
    const parts = value.split('.');
    if (parts.length !== 3) {
      ctx.addIssue({ code: 'custom', message: 'must be catalog.schema.table (three names separated by dots)' });
      return;
    }
    for (const p of parts) {
      const r = IdentifierSchema.safeParse(p);
      if (!r.success) ctx.addIssue({ code: 'custom', message: `'${p}': ${r.error.issues[0]?.message}` });
    }
  })
  .meta({ description: 'catalog.schema.table', example: 'demo_sales.sales.orders' });

/**
 * What a run covers: one table (`catalog.schema.table`), every table of a schema with enabled checks
 * (`catalog.schema.all`), of a catalog (`catalog.all`), or everywhere (`all`).
 */
export const RunScopeSchema = z
  .string()
  .min(3)
  .max(800)
  .superRefine((value, ctx) => {
    const parts = value.split('.');
    const shape = value === 'all' || (parts.length === 2 && parts[1] === 'all') || parts.length === 3;
    if (!shape || parts.some((p) => !IdentifierSchema.safeParse(p).success))
      ctx.addIssue({ code: 'custom', message: 'must be catalog.schema.table, catalog.schema.all, catalog.all or all' });
  });

export const CriticalityInputSchema = z
  .enum(['error', 'warn', 'warning'])
  .meta({ description: 'error or warn (warning is accepted and stored as warn)' });
export const CriticalitySchema = z.enum(['error', 'warn']);

const ArgumentsSchema = z.record(z.string(), z.unknown());
const MetadataSchema = z.record(z.string(), z.unknown());
const SqlTextSchema = PrintableTextSchema.pipe(z.string().max(10_000));

export const CheckCreateSchema = z.object({
  table_fqn: TableFqnSchema,
  name: PrintableTextSchema.pipe(z.string().min(1).max(255)).optional(),
  check_function: z.string().min(1).max(100),
  arguments: ArgumentsSchema.default({}),
  /** DQX's `for_each_column`: the check is stored once per listed column (arguments.column set to each). */
  for_each_column: z.array(z.string().min(1).max(255)).min(1).max(500).optional(),
  criticality: CriticalityInputSchema.default('error'),
  enabled: z.boolean().default(true),
  /** A Databricks SQL predicate scoping the check (`filter_expr` is accepted too). */
  filter: SqlTextSchema.nullish(),
  filter_expr: SqlTextSchema.nullish(),
  user_metadata: MetadataSchema.nullish(),
});
export type CheckCreate = z.infer<typeof CheckCreateSchema>;

export const CheckUpdateSchema = z
  .object({
    name: PrintableTextSchema.pipe(z.string().min(1).max(255)).optional(),
    check_function: z.string().min(1).max(100).optional(),
    arguments: ArgumentsSchema.optional(),
    criticality: CriticalityInputSchema.optional(),
    filter: SqlTextSchema.nullish(),
    filter_expr: SqlTextSchema.nullish(),
    user_metadata: MetadataSchema.nullish(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'nothing to update' });
export type CheckUpdate = z.infer<typeof CheckUpdateSchema>;

export const CheckSchema = z
  .object({
    id: z.string(),
    check_id: z.string(),
    table_fqn: z.string(),
    name: z.string(),
    check_function: z.string(),
    arguments: ArgumentsSchema,
    criticality: CriticalitySchema,
    enabled: z.boolean(),
    filter: z.string().nullable(),
    user_metadata: MetadataSchema.nullable(),
    created_by: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'DqxCheck' });
export type CheckView = z.infer<typeof CheckSchema>;

export const CheckListQuerySchema = paginationQuery(500).extend({ table_fqn: TableFqnSchema.optional() });
export const CheckIdParamsSchema = z.object({ id: z.string().min(1).max(100) });
export const ToggleBodySchema = z.object({ enabled: z.boolean().optional() });
export const BulkDeleteSchema = z
  .object({
    check_ids: z.array(z.string().min(1).max(100)).min(1).max(10_000).optional(),
    table_fqn: TableFqnSchema.optional(),
    all: z.literal(true).optional(),
  })
  .refine((b) => [b.check_ids, b.table_fqn, b.all].filter((v) => v !== undefined).length === 1, {
    message: 'give exactly one of check_ids, table_fqn or all: true',
  });

export const AuditQuerySchema = paginationQuery(100).extend({
  check_id: z.string().min(1).max(100).optional(),
  table_fqn: TableFqnSchema.optional(),
});
export const AuditEntrySchema = z
  .object({
    audit_id: z.string(),
    check_id: z.string(),
    table_fqn: z.string().nullable(),
    action: z.enum(['create', 'update', 'delete', 'enable', 'disable', 'bulk_delete']),
    /** The changes as a JSON string (an object: field → value, or field → {from, to} for updates). */
    changes: z.string(),
    performed_by: z.string(),
    performed_at: z.string(),
  })
  .meta({ id: 'DqxCheckAuditEntry' });

export const CheckFunctionSchema = z
  .object({
    name: z.string(),
    category: z.string(),
    level: z.enum(['row', 'dataset']),
    description: z.string(),
    args: z.array(z.object({ name: z.string(), type: z.string(), required: z.boolean(), description: z.string() })),
    available: z.boolean(),
    unavailable_reason: z.string().nullable(),
  })
  .meta({ id: 'DqxCheckFunction' });

/** DQ job input (the workflow's only argument): the tables to run, each with the check ids to apply. */
export const DqRunInputSchema = z.object({
  jobId: z.string(),
  scope: z.string(),
  tables: z.array(z.object({ runId: z.string(), tableFqn: z.string(), checkIds: z.array(z.string()).optional() })),
  parallelism: z.number().int().min(1).max(16),
  executedBy: z.string(),
  /** The local warehouse (engine pool) the run's SQL runs on; absent or `default`: the workspace's own engine. */
  warehouseId: z.string().optional(),
});
export type DqRunInput = z.infer<typeof DqRunInputSchema>;

export const RunBodySchema = z.object({
  table_fqn: RunScopeSchema,
  check_ids: z.array(z.string().min(1).max(100)).max(10_000).optional(),
  /** Tables run at once in a multi-table run (default 4). */
  max_parallelism: z.number().int().min(1).max(16).default(4),
  /** How long the request waits for the result before answering 202 with the run's job id (default 600). */
  wait_seconds: z.number().int().min(0).max(3600).default(600),
  /** The SQL warehouse the checks run on (a local pool; STOPPED starts first, unknown fails without retry). */
  warehouse_id: z.string().trim().min(1).max(255).optional(),
});

export const CheckResultSchema = z.object({
  check_id: z.string(),
  name: z.string(),
  check_function: z.string(),
  criticality: CriticalitySchema,
  level: z.enum(['row', 'dataset']),
  failures: z.number(),
  failure_pct: z.number(),
});

export const RunResultSchema = z
  .object({
    run_id: z.string(),
    job_id: z.string(),
    table_fqn: z.string(),
    total_rows: z.number(),
    valid_rows: z.number(),
    invalid_rows: z.number(),
    error_rows: z.number(),
    warning_rows: z.number(),
    pass_rate: z.number(),
    checks_applied: z.number(),
    check_results: z.array(CheckResultSchema),
    execution_time_ms: z.number(),
    status: z.enum(['completed', 'failed']),
    error: z.string().nullable(),
    executed_at: z.string(),
    executed_by: z.string(),
  })
  .meta({ id: 'DqxRunResult' });
export type RunResult = z.infer<typeof RunResultSchema>;

export const MultiRunResultSchema = z.object({
  run_id: z.string(),
  job_id: z.string(),
  scope: z.string(),
  status: z.string(),
  tables_checked: z.number(),
  passed: z.number(),
  failed: z.number(),
  results: z.array(RunResultSchema),
});

export const RunAcceptedSchema = z.object({
  job_id: z.string(),
  run_id: z.string(),
  status: z.string(),
  message: z.string(),
});

export const RunIdParamsSchema = z.object({ run_id: z.string().min(1).max(200) });
export const RunListQuerySchema = paginationQuery(50).extend({ table_fqn: TableFqnSchema.optional() });

export const SamplesQuerySchema = z
  .object({
    run_id: z.string().min(1).max(200).optional(),
    table_fqn: TableFqnSchema.optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(50),
  })
  .refine((q) => q.run_id !== undefined || q.table_fqn !== undefined, {
    message: 'give run_id or table_fqn',
    path: ['run_id'],
  });
export const FailureSampleSchema = z
  .object({
    run_id: z.string(),
    table_fqn: z.string(),
    sample_index: z.number(),
    row_data: z.record(z.string(), z.unknown()),
    failed_checks: z.object({ errors: z.array(z.string()), warnings: z.array(z.string()) }),
    sampled_at: z.string(),
  })
  .meta({ id: 'DqxFailureSample' });

export const SegmentedRunBodySchema = z.object({
  table_fqn: TableFqnSchema,
  segment_column: z.string().min(1).max(255),
  check_ids: z.array(z.string().min(1).max(100)).max(10_000).optional(),
});
export const SegmentSchema = z.object({
  segment_value: z.string().nullable(),
  total_rows: z.number(),
  valid_rows: z.number(),
  invalid_rows: z.number(),
  warning_rows: z.number(),
  pass_rate: z.number(),
});
export const SegmentedResultSchema = z
  .object({
    run_id: z.string(),
    table_fqn: z.string(),
    segment_column: z.string(),
    segments: z.number(),
    /** Segments beyond the first 100 (by row count) are summed into one result whose segment_value is `other`. */
    other_segments: z.number(),
    results: z.array(SegmentSchema),
    checks_applied: z.number(),
    execution_time_ms: z.number(),
    status: z.string(),
  })
  .meta({ id: 'DqxSegmentedResult' });
export type SegmentedResult = z.infer<typeof SegmentedResultSchema>;

export const CoverageSchema = z
  .object({
    catalog: z.string(),
    total_tables: z.number(),
    covered: z.number(),
    uncovered: z.number(),
    coverage_pct: z.number(),
    covered_tables: z.array(z.object({ table_fqn: z.string(), check_count: z.number(), enabled_count: z.number() })),
    uncovered_tables: z.array(z.object({ table_fqn: z.string() })),
  })
  .meta({ id: 'DqxCoverage' });

/**
 * The quality gate of a clone (`dq_gate` in the clone request, a template and the config's `clone:` section): when
 * enabled, the table's checks (or the suite) run on the source before the clone writes anything; a pass rate
 * below min_pass_rate, or a gate that cannot run, fails the job with the gate's reason.
 */
export const DqGateConfigSchema = z
  .strictObject({
    /** Default true (a dq_gate that is given is on). */
    enabled: z.boolean().optional(),
    table_fqn: TableFqnSchema.nullish(),
    suite_id: z.string().min(1).max(200).nullish(),
    /** Percent, default 95. */
    min_pass_rate: z.number().min(0).max(100).optional(),
  })
  .meta({ id: 'DqGateConfig' });
export type DqGateConfig = z.infer<typeof DqGateConfigSchema>;
export const DEFAULT_GATE_MIN_PASS_RATE = 95;
