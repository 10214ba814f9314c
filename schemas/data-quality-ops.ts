import { z } from 'zod';
import { PrintableTextSchema, paginationQuery } from './common';
import { TableFqnSchema } from './data-quality';

/** Data-quality operations: gate, inline rules, cross-table checks, anomalies, suites, impact, root cause, schedules. */

export const GateEvaluateBodySchema = z
  .strictObject({
    table_fqn: TableFqnSchema.nullish(),
    suite_id: z.string().min(1).max(200).nullish(),
    min_pass_rate: z.number().min(0).max(100).default(95),
  })
  .refine((b) => Boolean(b.table_fqn) || Boolean(b.suite_id), {
    message: 'give table_fqn or suite_id',
    path: ['table_fqn'],
  });

export const GateResultSchema = z
  .object({
    passed: z.boolean(),
    pass_rate: z.number(),
    min_pass_rate: z.number(),
    total_rows: z.number(),
    invalid_rows: z.number(),
    checks_applied: z.number(),
    reason: z.string(),
    table_fqn: z.string().nullable(),
    suite_id: z.string().nullable(),
  })
  .meta({ id: 'DqGateResult' });

const Name = PrintableTextSchema.pipe(z.string().min(1).max(255));

export const InlineRuleCreateSchema = z.strictObject({
  name: Name,
  table_fqn: TableFqnSchema,
  check_type: z.enum(['not_null', 'unique', 'range', 'regex', 'referential', 'expression']),
  column: z.string().min(1).max(255).nullish(),
  /** range {min, max}; regex {pattern}; referential {ref_table, ref_column}; expression {expression} (true = valid). */
  params: z.record(z.string(), z.unknown()).default({}),
  severity: z.enum(['info', 'warning', 'critical']).default('warning'),
  action: z.enum(['log', 'block', 'quarantine']).default('log'),
  runtime: z.literal('inline').default('inline'),
  /** Rules start inactive unless created active (POST …/{id}/activate). */
  active: z.boolean().default(false),
});

export const InlineRuleSchema = z
  .object({
    id: z.string(),
    rule_id: z.string(),
    name: z.string(),
    table_fqn: z.string(),
    check_type: z.string(),
    column: z.string().nullable(),
    params: z.record(z.string(), z.unknown()),
    severity: z.string(),
    action: z.string(),
    runtime: z.string(),
    active: z.boolean(),
    /** The engine check the rule compiles to. */
    check_function: z.string(),
    created_by: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'DqInlineRule' });

export const RuleListQuerySchema = z.object({
  table_fqn: TableFqnSchema.optional(),
  active: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export const IdParamsSchema = z.object({ id: z.string().min(1).max(200) });
export const RuleTestBodySchema = z.strictObject({ limit: z.number().int().min(1).max(1000).default(1000) });
export const RuleTestResultSchema = z.object({
  rule_id: z.string(),
  table_fqn: z.string(),
  sample_rows: z.number(),
  violations: z.number(),
  passed: z.boolean(),
  action: z.string(),
  samples: z.array(z.record(z.string(), z.unknown())),
});

export const CrossTableBodySchema = z.strictObject({
  check_type: z.enum(['aggregate_match', 'referential_integrity', 'row_count_match', 'custom_sql']),
  params: z.record(z.string(), z.unknown()).default({}),
});
export const CrossTableResultSchema = z
  .object({
    check_type: z.string(),
    passed: z.boolean(),
    execution_time_ms: z.number(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'DqCrossTableResult' });

export const AnomalyStatusSchema = z.enum(['open', 'acknowledged', 'resolved', 'false_positive']);
export const AnomalySeveritySchema = z.enum(['info', 'warning', 'critical']);
export const AnomalyQuerySchema = paginationQuery(100).extend({
  status: AnomalyStatusSchema.optional(),
  severity: AnomalySeveritySchema.optional(),
  table_fqn: TableFqnSchema.optional(),
});
export const AnomalySchema = z
  .object({
    id: z.string(),
    anomaly_id: z.string(),
    metric: z.string(),
    table_fqn: z.string(),
    column: z.string().nullable(),
    observed_value: z.number(),
    expected_range: z.object({ min: z.number(), max: z.number() }),
    baseline: z.object({ mean: z.number(), stddev: z.number(), samples: z.number() }),
    z_score: z.number(),
    severity: AnomalySeveritySchema,
    detected_at: z.string(),
    status: AnomalyStatusSchema,
    run_id: z.string().nullable(),
    status_changed_at: z.string().nullable(),
    status_changed_by: z.string().nullable(),
  })
  .meta({ id: 'DqAnomaly' });

export const SuiteCreateSchema = z
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/, 'letters, digits, ., - and _ only')
      .optional(),
    table_fqn: TableFqnSchema,
    description: PrintableTextSchema.pipe(z.string().max(2000)).optional(),
    /** A Great Expectations suite document ({expectation_suite_name, expectations: [{expectation_type, kwargs}]}). */
    gx_suite: z.record(z.string(), z.unknown()).optional(),
    /** Or the expectations directly, in the same shape. */
    expectations: z
      .array(
        z.object({
          expectation_type: z.string().min(1).max(200),
          kwargs: z.record(z.string(), z.unknown()).default({}),
        }),
      )
      .max(1000)
      .optional(),
  })
  .refine((b) => (b.gx_suite === undefined) !== (b.expectations === undefined), {
    message: 'give gx_suite or expectations (exactly one)',
    path: ['gx_suite'],
  });

const ExpectationSchema = z.object({ expectation_type: z.string(), kwargs: z.record(z.string(), z.unknown()) });
export const SuiteSchema = z
  .object({
    suite_id: z.string(),
    name: z.string(),
    table_fqn: z.string(),
    description: z.string(),
    expectations: z.array(ExpectationSchema.extend({ check_functions: z.array(z.string()) })),
    unsupported: z.array(ExpectationSchema.extend({ reason: z.string() })),
    last_validated_at: z.string().nullable(),
    created_by: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'DqExpectationSuite' });
export const SuiteNameParamsSchema = z.object({ name: z.string().min(1).max(200) });

export const SuiteValidationSchema = z
  .object({
    suite_name: z.string(),
    table_fqn: z.string(),
    success: z.boolean(),
    run_time: z.string(),
    statistics: z.object({
      evaluated_expectations: z.number(),
      successful_expectations: z.number(),
      unsuccessful_expectations: z.number(),
      success_percent: z.number(),
    }),
    total_rows: z.number(),
    invalid_rows: z.number(),
    pass_rate: z.number(),
    results: z.array(
      ExpectationSchema.extend({
        success: z.boolean(),
        unexpected_count: z.number(),
        element_count: z.number(),
        unexpected_percent: z.number(),
        error: z.string().nullish(),
      }),
    ),
  })
  .meta({ id: 'DqSuiteValidation' });

export const TableFqnParamsSchema = z.object({ table_fqn: TableFqnSchema });
export const ImpactSchema = z
  .object({
    table_fqn: z.string(),
    downstream_tables: z.array(z.string()),
    downstream_views: z.array(z.object({ catalog: z.string(), schema: z.string(), view: z.string() })),
    referencing_jobs: z.array(z.object({ job_name: z.string(), job_id: z.string() })),
    total_affected: z.number(),
    risk_level: z.enum(['low', 'medium', 'high']),
    source: z.string(),
  })
  .meta({ id: 'DqImpact' });
export const RootCauseQuerySchema = z.object({
  hours: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24),
});
export const RootCauseSchema = z
  .object({
    table_fqn: z.string(),
    time_window_hours: z.number(),
    probable_causes: z.array(
      z.object({
        type: z.enum(['correlated_anomalies', 'upstream_anomaly', 'freshness_gap', 'schema_change']),
        confidence: z.number(),
        description: z.string(),
        details: z.array(z.record(z.string(), z.unknown())),
      }),
    ),
    total_causes_found: z.number(),
  })
  .meta({ id: 'DqRootCause' });

export const DqEventSchema = z
  .object({
    id: z.number(),
    type: z.string(),
    table_fqn: z.string().nullable(),
    job_id: z.string().nullable(),
    message: z.string(),
    payload: z.record(z.string(), z.unknown()),
    created_at: z.string(),
  })
  .meta({ id: 'DqEvent' });
export const DqEventQuerySchema = z.object({
  type: z.string().min(1).max(100).optional(),
  job_id: z.string().min(1).max(200).optional(),
  table_fqn: TableFqnSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

export const ScheduleCreateSchema = z
  .strictObject({
    name: Name,
    schedule_type: z.enum(['table', 'suite', 'checks', 'all']),
    table_fqn: TableFqnSchema.nullish(),
    suite_id: z.string().min(1).max(200).nullish(),
    check_ids: z.array(z.string().min(1).max(100)).min(1).max(10_000).nullish(),
    /** Standard 5-field cron (minute hour day-of-month month day-of-week), UTC; every field is honoured. */
    cron: z.string().min(9).max(200).default('0 * * * *'),
  })
  .superRefine((b, ctx) => {
    const need = { table: 'table_fqn', suite: 'suite_id', checks: 'check_ids', all: null }[b.schedule_type];
    if (need && !b[need as 'table_fqn' | 'suite_id' | 'check_ids'])
      ctx.addIssue({ code: 'custom', path: [need], message: `required for schedule_type ${b.schedule_type}` });
  });

export const DqScheduleSchema = z
  .object({
    id: z.string(),
    schedule_id: z.string(),
    name: z.string(),
    schedule_type: z.string(),
    table_fqn: z.string().nullable(),
    suite_id: z.string().nullable(),
    check_ids: z.array(z.string()).nullable(),
    cron: z.string(),
    status: z.enum(['active', 'paused']),
    /** From Temporal: the latest firing, its workflow status, and the next firing. */
    last_run_at: z.string().nullable(),
    last_run_id: z.string().nullable(),
    last_run_status: z.string().nullable(),
    next_run_at: z.string().nullable(),
    created_by: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'DqSchedule' });
