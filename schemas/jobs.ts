import { z } from 'zod';
import { paginationQuery } from './common';

/**
 * The job kernel's shapes, written once: every job type (clone, and the ones to come) has these states, these
 * events and these records. A job is `queued` until a run slot frees, `running` while its workflow works,
 * `cancelling` from a cancel request until its end is recorded, and then one of the final states.
 */
export const JOB_STATUSES = ['queued', 'running', 'cancelling', 'completed', 'failed', 'cancelled', 'aborted'] as const;
export const JobStatusSchema = z.enum(JOB_STATUSES).meta({ id: 'JobStatus' });
export type JobStatus = z.infer<typeof JobStatusSchema>;

export const FINAL_JOB_STATUSES = ['completed', 'failed', 'cancelled', 'aborted'] as const;
export type FinalJobStatus = (typeof FINAL_JOB_STATUSES)[number];

export function isFinalJobStatus(status: string): status is FinalJobStatus {
  return (FINAL_JOB_STATUSES as readonly string[]).includes(status);
}

/** Kinds of job event. `log` is a plain run-log line; `progress` a snapshot sent by the WebSocket. */
export const JOB_EVENT_TYPES = [
  'status',
  'progress',
  'table_started',
  'table_finished',
  'schema_finished',
  'retry',
  'warning',
  'completed',
  'error',
  'log',
] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

/**
 * One event of a job, as the WebSocket (`/api/jobs/ws/{id}`, `/api/clone/ws/{id}`) and the NDJSON/SSE log stream
 * send it. Every event has these keys; an event type may add its own (table, schema, status, tables, …).
 */
export const JobEventSchema = z
  .object({
    type: z.enum(JOB_EVENT_TYPES),
    job_id: z.string(),
    ts: z.iso.datetime(),
    message: z.string().min(1),
    level: z.enum(['info', 'warn', 'error']),
    /** Run-log row id: increasing in the order things happened; absent on `progress` snapshots. */
    seq: z.number().int().optional(),
    /** True on the last event of a job (its recorded end). */
    final: z.boolean().optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'JobEvent' });
export type JobEvent = z.infer<typeof JobEventSchema>;

/** Progress of any job: units of work done (tables for a clone) against the planned total. */
export const JobProgressSchema = z
  .object({
    completed: z.number().int(),
    total: z.number().int(),
    /** "done/total" of schemas (clone) or of the job's own stages. */
    schemas: z.string(),
    tables: z.string(),
    tables_failed: z.number().int(),
    tables_skipped: z.number().int(),
    bytes_copied: z.number().optional(),
    eta_seconds: z.number().nullable().optional(),
  })
  .meta({ id: 'JobProgress' });
export type JobProgress = z.infer<typeof JobProgressSchema>;

export const JobListItemSchema = z
  .object({
    job_id: z.string(),
    job_type: z.string(),
    status: JobStatusSchema,
    progress: JobProgressSchema,
    created_at: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    error: z.string().nullable(),
  })
  .catchall(z.unknown())
  .meta({ id: 'JobListItem' });

export const JobListQuerySchema = paginationQuery().extend({
  type: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'a job type: lower-case letters, digits, _ and -')
    .optional(),
  status: JobStatusSchema.optional(),
});

export const JobIdParamsSchema = z.object({
  jobId: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'a job id: letters, digits, _ . : and -'),
});

export const CancelResponseSchema = z
  .object({ job_id: z.string(), status: z.enum(['cancelling', 'cancelled']), message: z.string() })
  .meta({ id: 'CancelResponse' });
