import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A rollback log: what a clone job changed, recorded before it changed it, so the change can be undone. */
export const rollbackLogs = pgTable(
  'rollback_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: text('job_id').notNull(),
    destinationCatalog: text('destination_catalog'),
    /** recorded → rolled_back | rollback_failed */
    status: text('status').notNull().default('recorded'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    completedAt: tsz('completed_at'),
  },
  (t) => [index('rollback_logs_job_id_idx').on(t.jobId)],
);

/**
 * One object touched by the job. `existed`, `version` and `governance` describe the object before the job: a
 * table that existed is restored to `version` and its grants and tags, one that did not is dropped. `seq` orders undo (reverse of creation).
 */
export const rollbackEntries = pgTable(
  'rollback_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    rollbackId: uuid('rollback_id')
      .notNull()
      .references(() => rollbackLogs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    objectType: text('object_type').notNull(),
    fqn: text('fqn').notNull(),
    existed: boolean('existed').notNull(),
    version: bigint('version', { mode: 'number' }),
    /** A table that existed: its grants and tags before the job ({grants: [{principal, privileges}], tags}). */
    governance: jsonb('governance').$type<{
      grants: { principal: string; privileges: string[] }[];
      tags: Record<string, string>;
    }>(),
    action: text('action').notNull(),
  },
  (t) => [unique('rollback_entries_log_fqn_uq').on(t.rollbackId, t.objectType, t.fqn)],
);
