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
const count = (name: string) => bigint(name, { mode: 'number' });

/** DQX checks: one row per check (a `for_each_column` check is stored expanded, one row per column). */
export const dqxChecks = pgTable(
  'dqx_checks',
  {
    checkId: text('check_id').primaryKey(),
    name: text('name').notNull(),
    tableFqn: text('table_fqn').notNull(),
    criticality: text('criticality').notNull(),
    checkFunction: text('check_function').notNull(),
    arguments: jsonb('arguments').$type<Record<string, unknown>>().notNull(),
    filterExpr: text('filter_expr'),
    enabled: boolean('enabled').notNull().default(true),
    userMetadata: jsonb('user_metadata').$type<Record<string, string>>(),
    createdBy: text('created_by').notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
    updatedAt: tsz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('dqx_checks_table_fqn_idx').on(t.tableFqn)],
);

/** One row per table per run (the run id is the dq job id, or `<job id>-<n>` in a multi-table run). */
export const dqxRunResults = pgTable(
  'dqx_run_results',
  {
    runId: text('run_id').primaryKey(),
    jobId: text('job_id').notNull(),
    tableFqn: text('table_fqn').notNull(),
    totalRows: count('total_rows').notNull(),
    validRows: count('valid_rows').notNull(),
    invalidRows: count('invalid_rows').notNull(),
    errorRows: count('error_rows').notNull(),
    warningRows: count('warning_rows').notNull(),
    passRate: doublePrecision('pass_rate').notNull(),
    checksApplied: integer('checks_applied').notNull(),
    /** Per check: `{check_id, name, check_function, criticality, level, failures}`. */
    checkResults: jsonb('check_results').$type<Record<string, unknown>[]>().notNull(),
    executionTimeMs: integer('execution_time_ms').notNull(),
    status: text('status').notNull(),
    error: text('error'),
    executedAt: tsz('executed_at').notNull().defaultNow(),
    executedBy: text('executed_by').notNull(),
  },
  (t) => [
    index('dqx_run_results_table_fqn_idx').on(t.tableFqn, t.executedAt),
    index('dqx_run_results_job_id_idx').on(t.jobId),
  ],
);

/** At most 10 failing rows per run, with the names of the checks each failed. */
export const dqxFailureSamples = pgTable(
  'dqx_failure_samples',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: text('run_id').notNull(),
    tableFqn: text('table_fqn').notNull(),
    sampleIndex: integer('sample_index').notNull(),
    rowData: jsonb('row_data').$type<Record<string, unknown>>().notNull(),
    failedChecks: jsonb('failed_checks').$type<{ errors: string[]; warnings: string[] }>().notNull(),
    sampledAt: tsz('sampled_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('dqx_failure_samples_run_idx').on(t.runId, t.sampleIndex),
    index('dqx_failure_samples_table_fqn_idx').on(t.tableFqn, t.sampledAt),
  ],
);

/** Segmented runs: one row per segment value (`other` gathers the segments beyond the first 100). */
export const dqxSegmentResults = pgTable(
  'dqx_segment_results',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: text('run_id').notNull(),
    tableFqn: text('table_fqn').notNull(),
    segmentColumn: text('segment_column').notNull(),
    segmentValue: text('segment_value'),
    totalRows: count('total_rows').notNull(),
    validRows: count('valid_rows').notNull(),
    invalidRows: count('invalid_rows').notNull(),
    warningRows: count('warning_rows').notNull(),
    passRate: doublePrecision('pass_rate').notNull(),
    checksApplied: integer('checks_applied').notNull(),
    executedAt: tsz('executed_at').notNull().defaultNow(),
  },
  (t) => [index('dqx_segment_results_run_idx').on(t.runId), index('dqx_segment_results_table_idx').on(t.tableFqn)],
);

/** Table profiles (the whole Profile document: per-column statistics), newest last. */
export const dqxProfiles = pgTable(
  'dqx_profiles',
  {
    profileId: text('profile_id').primaryKey(),
    tableFqn: text('table_fqn').notNull(),
    rowCount: count('row_count').notNull(),
    columnCount: integer('column_count').notNull(),
    profile: jsonb('profile').$type<Record<string, unknown>>().notNull(),
    options: jsonb('options').$type<Record<string, unknown>>(),
    profiledAt: tsz('profiled_at').notNull().defaultNow(),
    profiledBy: text('profiled_by').notNull(),
  },
  (t) => [index('dqx_profiles_table_fqn_idx').on(t.tableFqn, t.profiledAt)],
);

/** Check sets as YAML documents, as imported or saved (the source says which). */
export const dqxCheckDefinitions = pgTable(
  'dqx_check_definitions',
  {
    definitionId: text('definition_id').primaryKey(),
    tableFqn: text('table_fqn'),
    checksYaml: text('checks_yaml').notNull(),
    source: text('source').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [index('dqx_check_definitions_table_fqn_idx').on(t.tableFqn)],
);

/** Every create, update, delete, enable, disable and bulk delete of a check. */
export const dqxCheckAuditLog = pgTable(
  'dqx_check_audit_log',
  {
    auditId: bigserial('audit_id', { mode: 'number' }).primaryKey(),
    checkId: text('check_id').notNull(),
    tableFqn: text('table_fqn'),
    action: text('action').notNull(),
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull(),
    performedBy: text('performed_by').notNull(),
    performedAt: tsz('performed_at').notNull().defaultNow(),
  },
  (t) => [
    index('dqx_check_audit_log_check_idx').on(t.checkId, t.performedAt),
    index('dqx_check_audit_log_table_idx').on(t.tableFqn, t.performedAt),
  ],
);
