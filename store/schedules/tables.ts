import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Clone schedules (POST /api/schedule) and persistent scheduled jobs (POST /api/generate/create-job): one row per
 * Temporal Schedule (or Databricks Job), with what drift_check and max_runs need between runs. Temporal keeps
 * when it fires; this row keeps what the runs found.
 */
export const cloneSchedules = pgTable(
  'clone_schedules',
  {
    /** The Temporal Schedule id. */
    scheduleId: text('schedule_id').primaryKey(),
    name: text('name').notNull().unique(),
    /** `schedule` (POST /api/schedule) or `job` (POST /api/generate/create-job). */
    kind: text('kind').notNull(),
    /** The configuration as given (schedule block or job fields, never credentials). */
    spec: jsonb('spec').$type<Record<string, unknown>>().notNull(),
    /** The clone request every run submits. */
    cloneRequest: jsonb('clone_request').$type<Record<string, unknown>>().notNull(),
    driftCheck: boolean('drift_check').notNull().default(false),
    /** Clones after which the schedule ends; 0 = unlimited. */
    maxRuns: integer('max_runs').notNull().default(0),
    /** `temporal` (this service's Schedules) or `databricks-jobs` (a Databricks Job holds the schedule). */
    target: text('target').notNull().default('temporal'),
    /** The Databricks job id when target is databricks-jobs. */
    externalJobId: text('external_job_id'),
    /** active, paused or ended (max_runs reached). */
    status: text('status').notNull().default('active'),
    clones: integer('clones').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** Source table versions (`schema.table` → Delta version) read before the last scheduled clone. */
    lastVersions: jsonb('last_versions').$type<Record<string, number>>(),
    lastCloneJobId: text('last_clone_job_id'),
    lastCloneStartedAt: tsz('last_clone_started_at'),
    lastCloneCompletedAt: tsz('last_clone_completed_at'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    updatedAt: tsz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('clone_schedules_kind_idx').on(t.kind)],
);

/** One row per fired run of a schedule (the id is the run's workflow id). */
export const scheduleRuns = pgTable(
  'schedule_runs',
  {
    runId: text('run_id').primaryKey(),
    scheduleId: text('schedule_id').notNull(),
    /** When Temporal meant the run to start (the schedule's nominal time). */
    scheduledAt: tsz('scheduled_at'),
    startedAt: tsz('started_at').notNull().defaultNow(),
    endedAt: tsz('ended_at'),
    /** running, skipped (drift check), completed, failed, cancelled, or ended (max_runs already reached). */
    outcome: text('outcome').notNull(),
    /** The clone job this run submitted. */
    jobId: text('job_id'),
    reason: text('reason'),
    versions: jsonb('versions').$type<Record<string, number>>(),
  },
  (t) => [index('schedule_runs_schedule_idx').on(t.scheduleId, t.startedAt)],
);
