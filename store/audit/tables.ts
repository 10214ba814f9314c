import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Audit trail: one row per action taken for a job (start, finish, rollback, …). */
export const audit = pgTable(
  'audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: text('job_id'),
    action: text('action').notNull(),
    status: text('status').notNull(),
    durationMs: integer('duration_ms'),
    error: text('error'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [index('audit_job_id_idx').on(t.jobId), index('audit_created_at_idx').on(t.createdAt)],
);
