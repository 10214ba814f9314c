import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * One row per job (the job id is the Temporal workflow id). Temporal stays the source of truth for live
 * status; this row is what users query after Temporal's retention has dropped the execution.
 */
export const jobs = pgTable(
  'jobs',
  {
    jobId: text('job_id').primaryKey(),
    jobType: text('job_type').notNull(),
    status: text('status').notNull(),
    sourceCatalog: text('source_catalog'),
    destinationCatalog: text('destination_catalog'),
    cloneType: text('clone_type'),
    request: jsonb('request').$type<Record<string, unknown>>(),
    summary: jsonb('summary').$type<Record<string, unknown>>(),
    /** Live progress as the job last wrote it (planned totals and, for types that keep no other record, counts). */
    progress: jsonb('progress').$type<Record<string, unknown>>(),
    /** When a cancel was requested (status cancelling until the end is recorded). */
    cancelRequestedAt: tsz('cancel_requested_at'),
    error: text('error'),
    user: text('user_name'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    startedAt: tsz('started_at'),
    completedAt: tsz('completed_at'),
  },
  (t) => [
    index('jobs_created_at_idx').on(t.createdAt),
    index('jobs_status_idx').on(t.status),
    // A job type's list, newest first (GET /api/clone/jobs and each type's list): without it a type that is rare
    // among many jobs is found by walking every newer job.
    index('jobs_type_created_at_idx').on(t.jobType, t.createdAt, t.jobId),
  ],
);

/** The run log of a job, in order. `id` gives the order and lets readers resume after the last line seen. */
export const runLogs = pgTable(
  'run_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    jobId: text('job_id').notNull(),
    ts: tsz('ts').notNull().defaultNow(),
    level: text('level').notNull().default('info'),
    message: text('message').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
  },
  (t) => [index('run_logs_job_id_id_idx').on(t.jobId, t.id)],
);
