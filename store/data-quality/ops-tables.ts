import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Data-quality operations: metric observations and anomalies, inline rules, expectation suites, DQ schedules and
 * the typed incident events (gate failed, rule blocked, critical anomaly, scheduled run failed).
 */

/** One measured metric of a table (column_name '') or column per DQ run; the anomaly baseline is read from here. */
export const dqMetricObservations = pgTable(
  'dq_metric_observations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tableFqn: text('table_fqn').notNull(),
    columnName: text('column_name').notNull().default(''),
    metric: text('metric').notNull(),
    value: doublePrecision('value').notNull(),
    runId: text('run_id'),
    /** Anomalous observations stay out of the baseline until marked false positive. */
    inBaseline: boolean('in_baseline').notNull().default(true),
    /** Marked false positive: the expected range always covers this value (feedback). */
    falsePositive: boolean('false_positive').notNull().default(false),
    measuredAt: tsz('measured_at').notNull().defaultNow(),
  },
  (t) => [index('dq_metric_observations_key_idx').on(t.tableFqn, t.columnName, t.metric, t.measuredAt)],
);

/** A metric that left its expected range. */
export const dqAnomalies = pgTable(
  'dq_anomalies',
  {
    anomalyId: text('anomaly_id').primaryKey(),
    observationId: bigint('observation_id', { mode: 'number' }).notNull(),
    tableFqn: text('table_fqn').notNull(),
    columnName: text('column_name').notNull().default(''),
    metric: text('metric').notNull(),
    observedValue: doublePrecision('observed_value').notNull(),
    expectedMin: doublePrecision('expected_min').notNull(),
    expectedMax: doublePrecision('expected_max').notNull(),
    baselineMean: doublePrecision('baseline_mean').notNull(),
    baselineStddev: doublePrecision('baseline_stddev').notNull(),
    zScore: doublePrecision('z_score').notNull(),
    baselineSamples: integer('baseline_samples').notNull(),
    severity: text('severity').notNull(),
    status: text('status').notNull().default('open'),
    runId: text('run_id'),
    detectedAt: tsz('detected_at').notNull().defaultNow(),
    statusChangedAt: tsz('status_changed_at'),
    statusChangedBy: text('status_changed_by'),
  },
  (t) => [
    index('dq_anomalies_table_idx').on(t.tableFqn, t.detectedAt),
    index('dq_anomalies_status_idx').on(t.status, t.severity),
  ],
);

/** Inline DQX rules: checked on the rows a clone copies (log, block or quarantine). */
export const dqxInlineRules = pgTable(
  'dqx_inline_rules',
  {
    ruleId: text('rule_id').primaryKey(),
    name: text('name').notNull(),
    tableFqn: text('table_fqn').notNull(),
    checkType: text('check_type').notNull(),
    columnName: text('column_name'),
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    severity: text('severity').notNull(),
    action: text('action').notNull(),
    runtime: text('runtime').notNull().default('inline'),
    active: boolean('active').notNull().default(false),
    createdBy: text('created_by').notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
    updatedAt: tsz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('dqx_inline_rules_table_name_idx').on(t.tableFqn, t.name)],
);

/** Expectation suites: named sets of checks on one table, with the last validation kept for the docs page. */
export const dqExpectationSuites = pgTable('dq_expectation_suites', {
  suiteId: text('suite_id').primaryKey(),
  name: text('name').notNull().unique(),
  tableFqn: text('table_fqn').notNull(),
  description: text('description').notNull().default(''),
  /** `[{expectation_type, kwargs, checks: DqCheck[]}]`. */
  expectations: jsonb('expectations').$type<Record<string, unknown>[]>().notNull(),
  /** Expectations the import could not map, `[{expectation_type, kwargs, reason}]`. */
  unsupported: jsonb('unsupported').$type<Record<string, unknown>[]>().notNull(),
  lastValidation: jsonb('last_validation').$type<Record<string, unknown>>(),
  createdBy: text('created_by').notNull(),
  createdAt: tsz('created_at').notNull().defaultNow(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});

/** DQ schedules (the Temporal Schedule `dq-schedule-<id>` fires them; this row is what was asked for). */
export const dqCheckSchedules = pgTable('dq_check_schedules', {
  scheduleId: text('schedule_id').primaryKey(),
  name: text('name').notNull(),
  scheduleType: text('schedule_type').notNull(),
  tableFqn: text('table_fqn'),
  suiteId: text('suite_id'),
  checkIds: jsonb('check_ids').$type<string[]>(),
  cron: text('cron').notNull(),
  status: text('status').notNull().default('active'),
  createdBy: text('created_by').notNull(),
  createdAt: tsz('created_at').notNull().defaultNow(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});

/** Typed data-quality incidents, for notifications now and playbook triggers later. */
export const dqEvents = pgTable(
  'dq_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** gate_failed, rule_blocked, rule_quarantined, rule_logged, anomaly_critical, scheduled_run_failed. */
    type: text('type').notNull(),
    tableFqn: text('table_fqn'),
    jobId: text('job_id'),
    message: text('message').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [index('dq_events_type_idx').on(t.type, t.createdAt), index('dq_events_job_idx').on(t.jobId)],
);
