import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { rollbackLogs } from './rollback-tables';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Where a rollback log's objects live: one log per (job, target), so a fan-out job has one per target.
 * `workspace` is a WorkspaceRef (never secrets). `result` holds the outcome of the last rollback run.
 */
export const rollbackTargets = pgTable(
  'rollback_targets',
  {
    rollbackId: uuid('rollback_id')
      .primaryKey()
      .references(() => rollbackLogs.id, { onDelete: 'cascade' }),
    jobId: text('job_id').notNull(),
    targetLabel: text('target_label').notNull(),
    sourceCatalog: text('source_catalog'),
    workspace: jsonb('workspace').$type<Record<string, unknown>>().notNull(),
    result: jsonb('result').$type<Record<string, unknown>>(),
  },
  (t) => [unique('rollback_targets_job_target_uq').on(t.jobId, t.targetLabel)],
);

/**
 * Write grants revoked from a source schema by quiesce. Written BEFORE the revoke (status `revoking`), so a
 * worker that dies mid-revoke leaves a record its successor restores from; `restored` once re-granted.
 * `privileges` is what is granted back, as it was held (`ALL PRIVILEGES` itself, not a list); a principal whose
 * `ALL PRIVILEGES` is revoked keeps read access meanwhile through `interim_privileges`, revoked again on restore.
 */
export const quiesceGrants = pgTable(
  'quiesce_grants',
  {
    jobId: text('job_id').notNull(),
    catalog: text('catalog').notNull(),
    schemaName: text('schema_name').notNull(),
    principal: text('principal').notNull(),
    privileges: jsonb('privileges').$type<string[]>().notNull(),
    interimPrivileges: jsonb('interim_privileges').$type<string[]>().notNull().default([]),
    workspace: jsonb('workspace').$type<Record<string, unknown>>().notNull(),
    /** revoking → revoked → restored */
    status: text('status').notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
    restoredAt: tsz('restored_at'),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.catalog, t.schemaName, t.principal] }),
    index('quiesce_grants_status_idx').on(t.status),
  ],
);

/** A named capture of a catalog: every table's Delta version at one instant. */
export const sourceSnapshots = pgTable(
  'source_snapshots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description'),
    sourceCatalog: text('source_catalog').notNull(),
    /** Key of the workspace the catalog lives in (local root or Databricks host). */
    workspaceId: text('workspace_id').notNull(),
    capturedAt: tsz('captured_at').notNull(),
    tableCount: integer('table_count').notNull(),
    totalBytes: bigint('total_bytes', { mode: 'number' }).notNull(),
    /** [{schema, table, version, size_bytes}] */
    tables: jsonb('tables')
      .$type<{ schema: string; table: string; version: number | null; size_bytes: number }[]>()
      .notNull(),
    createdBy: text('created_by'),
  },
  (t) => [index('source_snapshots_catalog_idx').on(t.sourceCatalog, t.capturedAt)],
);

/** Post-clone checks per table: `validation` (row counts, checksum) and `dq` (row and NULL-count drift). */
export const cloneChecks = pgTable(
  'clone_checks',
  {
    jobId: text('job_id').notNull(),
    target: text('target').notNull(),
    kind: text('kind').notNull(),
    schemaName: text('schema_name').notNull(),
    tableName: text('table_name').notNull(),
    passed: boolean('passed').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    checkedAt: tsz('checked_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.target, t.kind, t.schemaName, t.tableName] })],
);

/** Table starts of a job, for the job-wide throttle `tables_per_minute` (a sliding 60-second window). */
export const throttleStarts = pgTable(
  'throttle_starts',
  {
    jobId: text('job_id').notNull(),
    tableKey: text('table_key').notNull(),
    startedAt: tsz('started_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.tableKey] }),
    index('throttle_starts_job_time_idx').on(t.jobId, t.startedAt),
  ],
);

/**
 * The next free request slot of each throttled job (`max_rps`), shared by every worker on the same store: a
 * worker reserves a slot by moving `next_at` on by 1/max_rps seconds in one atomic upsert (store/clone/rate-slots).
 */
export const cloneRateSlots = pgTable('clone_rate_slots', {
  jobId: text('job_id').primaryKey(),
  nextAt: tsz('next_at').notNull(),
});
