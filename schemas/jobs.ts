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

const nullableText = z.string().nullable().optional();

/**
 * One line of a jobs list. The job kernel's fields, then what each job type adds about itself (its `describe`):
 * clone, sync and fan-out jobs their catalogs, other types their scope. A type added later may add keys of its own.
 */
export const JobListItemSchema = z
  .object({
    job_id: z.string(),
    job_type: z.string(),
    status: JobStatusSchema,
    progress: JobProgressSchema,
    created_at: z.string().meta({ description: 'ISO 8601' }),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable().meta({ description: 'set once the job is final' }),
    cancel_requested_at: z.string().nullable().optional(),
    error: z.string().nullable(),
    source_catalog: nullableText.meta({ description: 'clone, sync and fan-out jobs' }),
    destination_catalog: nullableText.meta({ description: 'clone, sync and fan-out jobs' }),
    clone_type: nullableText.meta({ description: 'DEEP or SHALLOW (clone, sync and fan-out jobs)' }),
    child_job_ids: z.array(z.string()).optional().meta({ description: 'the clone job of each fan-out target' }),
    scope: nullableText.meta({ description: 'what a data-quality, MDM or storage job covers' }),
    operation: nullableText.meta({ description: 'storage jobs: optimize, vacuum …' }),
    kind: nullableText.meta({ description: 'generator jobs: what they generate' }),
    destination: nullableText.meta({ description: 'generator jobs: where they write' }),
    pipeline_id: nullableText,
    notebook_id: nullableText,
    recommendation_id: nullableText,
  })
  .catchall(z.unknown())
  .meta({ id: 'JobListItem' });

/**
 * What a finished job recorded as its result. A clone (and sync, fan-out) records these counts; other job types
 * record their own fields beside `status` and `error`.
 */
export const JobResultSchema = z
  .object({
    status: z.string().optional(),
    mode: z.enum(['full', 'incremental', 'selective', 'fanout', 'dry_run']).optional(),
    tables_cloned: z.number().int().optional(),
    tables_failed: z.number().int().optional(),
    tables_skipped: z.number().int().optional(),
    views_cloned: z.number().int().optional(),
    functions_cloned: z.number().int().optional(),
    volumes_cloned: z.number().int().optional(),
    bytes_copied: z.number().optional(),
    files_copied: z.number().int().optional(),
    formats: z.record(z.string(), z.number()).optional().meta({ description: 'tables cloned per format' }),
    duration_seconds: z.number().optional(),
    error: z.string().optional(),
    plan: z.array(z.string()).optional().meta({ description: 'dry runs: the ordered statements' }),
    warnings: z.array(z.string()).optional(),
    target_count: z.number().int().optional(),
    succeeded_targets: z.number().int().optional(),
    failed_targets: z.number().int().optional(),
    target_status: z.enum(['success', 'partial', 'failed']).optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'JobResult' });

/** GET /api/jobs/{id}: the list line plus the queue position, the recorded result and the run log. */
export const JobRecordSchema = JobListItemSchema.extend({
  queue_position: z.number().int().nullable().meta({ description: 'place in its queue while queued (1 = next)' }),
  result: JobResultSchema.nullable(),
  logs: z.array(z.string()).meta({ description: 'run-log lines: `<ISO time> <LEVEL> <message>`' }),
}).meta({ id: 'JobRecord' });

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
