import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * What each clone job did to each table, per target: the "already done" record that makes a retried table
 * activity a no-op, and the per-table result (format, bytes, files, attempts, error) users look up later.
 */
export const cloneJobTables = pgTable(
  'clone_job_tables',
  {
    jobId: text('job_id').notNull(),
    /** CloneTarget.label: one job may write several targets (fan-out). */
    target: text('target').notNull(),
    schemaName: text('schema_name').notNull(),
    tableName: text('table_name').notNull(),
    /** cloned | failed | skipped */
    status: text('status').notNull(),
    format: text('format'),
    bytesCopied: bigint('bytes_copied', { mode: 'number' }).notNull().default(0),
    filesCopied: integer('files_copied').notNull().default(0),
    sourceVersion: bigint('source_version', { mode: 'number' }),
    attempts: integer('attempts').notNull().default(1),
    error: text('error'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    updatedAt: tsz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.target, t.schemaName, t.tableName] })],
);

/**
 * The source version last cloned into each destination table. SELECTIVE compares this recorded source
 * version with the source's current version (never source against destination versions: a clone restarts
 * the destination's history).
 */
export const cloneTableState = pgTable(
  'clone_table_state',
  {
    destWorkspace: text('dest_workspace').notNull(),
    destCatalog: text('dest_catalog').notNull(),
    schemaName: text('schema_name').notNull(),
    tableName: text('table_name').notNull(),
    sourceWorkspace: text('source_workspace').notNull(),
    sourceCatalog: text('source_catalog').notNull(),
    sourceVersion: bigint('source_version', { mode: 'number' }),
    jobId: text('job_id').notNull(),
    clonedAt: tsz('cloned_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.destWorkspace, t.destCatalog, t.schemaName, t.tableName] }),
    index('clone_table_state_job_idx').on(t.jobId),
  ],
);
