import { z } from 'zod';
import { cloneRequestFields, cloneRequestSchema } from './clone';
import { PrintableTextSchema } from './common';

/**
 * Clone schedules (the spec's "Scheduler configuration": POST /api/schedule and `lakeward schedule`) and
 * persistent scheduled jobs (POST /api/generate/create-job). Both become Temporal Schedules whose runs submit
 * normal clone jobs; a job may instead live in a Databricks workspace's Jobs service (target databricks-jobs).
 */

/** Letters, digits, `-` and `_`: a schedule's name is part of its Temporal Schedule id. */
export const ScheduleNameSchema = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only');

const INTERVAL = /^\d+[mhd]$/;

export const ScheduleBlockSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    /** Standard 5-field cron (`min hour dom mon dow`), or a Quartz expression with seconds (6 or 7 fields). */
    cron: PrintableTextSchema.min(1).max(200).optional(),
    /** Fixed interval: 15m, 1h, 6h, 1d (any whole number of minutes, hours or days). */
    interval: z.string().regex(INTERVAL, 'an interval like 15m, 1h, 6h or 1d').optional(),
    drift_check: z.boolean().default(false),
    max_runs: z.number().int().min(0).default(0),
    /** IANA time zone the cron expression is read in. */
    timezone: z.string().min(1).max(64).default('UTC'),
  })
  .superRefine((s, ctx) => {
    if ((s.cron === undefined) === (s.interval === undefined))
      ctx.addIssue({ code: 'custom', path: ['cron'], message: 'give schedule.cron or schedule.interval, not both' });
  });

export const NotificationFlagsSchema = z.strictObject({
  on_success: z.boolean().default(true),
  on_failure: z.boolean().default(true),
});

/** Body of POST /api/schedule and PUT /api/schedule/{schedule_id}, and the file `lakeward schedule` reads. */
export const ScheduleConfigSchema = z
  .strictObject({
    name: ScheduleNameSchema.optional(),
    schedule: ScheduleBlockSchema,
    clone_options: cloneRequestSchema,
    /** Clone template applied to every run (same as clone_options.template). */
    template: z.string().min(1).max(200).optional(),
    notifications: NotificationFlagsSchema.optional(),
  })
  .meta({ id: 'ScheduleConfig' });
export type ScheduleConfig = z.infer<typeof ScheduleConfigSchema>;

export const ScheduleIdParamsSchema = z.object({ scheduleId: z.string().min(1).max(200) });
export const PauseBodySchema = z.strictObject({ note: PrintableTextSchema.max(500).optional() }).optional();

export const ScheduleRunSchema = z
  .object({
    run_id: z.string(),
    scheduled_at: z.string().nullable(),
    started_at: z.string(),
    ended_at: z.string().nullable(),
    outcome: z.string(),
    job_id: z.string().nullable(),
    reason: z.string().nullable(),
  })
  .meta({ id: 'ScheduleRun' });

export const ScheduleViewSchema = z
  .object({
    schedule_id: z.string(),
    name: z.string(),
    kind: z.enum(['schedule', 'job']),
    target: z.enum(['temporal', 'databricks-jobs']),
    external_job_id: z.string().nullable(),
    status: z.string(),
    paused: z.boolean().nullable(),
    note: z.string().nullable(),
    spec: z.record(z.string(), z.unknown()),
    clone_options: z.record(z.string(), z.unknown()),
    drift_check: z.boolean(),
    max_runs: z.number(),
    clones: z.number(),
    skipped: z.number(),
    failed: z.number(),
    running: z.array(z.string()),
    next_run_times: z.array(z.string()),
    last_run_at: z.string().nullable(),
    last_clone_job_id: z.string().nullable(),
    last_clone_started_at: z.string().nullable(),
    last_clone_completed_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    recent_runs: z.array(ScheduleRunSchema).optional(),
  })
  .meta({ id: 'ScheduleView' });
export type ScheduleView = z.infer<typeof ScheduleViewSchema>;

export const ScheduleActionSchema = z
  .object({ schedule_id: z.string(), status: z.string(), message: z.string() })
  .meta({ id: 'ScheduleAction' });

/** The fields a persistent job adds to the clone request (POST /api/generate/create-job). */
export const jobFields = {
  job_name: ScheduleNameSchema.optional(),
  /** Quartz cron: `sec min hour dom mon dow [year]`, with `?` in one day field. */
  schedule: PrintableTextSchema.min(1).max(200).optional(),
  timezone: z.string().min(1).max(64).default('UTC'),
  notification_emails: z.array(z.string().email()).max(50).default([]),
  max_retries: z.number().int().min(0).max(10).default(0),
  timeout_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .default(7200),
  tags: z.record(z.string().min(1).max(255), PrintableTextSchema.max(255)).default({}),
  update_job_id: z.string().min(1).max(200).optional(),
  run_now: z.boolean().default(false),
  /** temporal (default): a Temporal Schedule here; databricks-jobs: a Databricks Job via the Jobs API. */
  target: z.enum(['temporal', 'databricks-jobs']).default('temporal'),
  drift_check: z.boolean().default(false),
  max_runs: z.number().int().min(0).default(0),
  /** databricks-jobs: the workspace notebook the job's task runs with the clone request as parameters. */
  notebook_path: PrintableTextSchema.min(1).max(1000).optional(),
};
const jobFieldNames = Object.keys(jobFields);

/** Every clone field plus the job fields; the clone part is checked again by cloneRequestSchema in the service. */
export const CreateJobBodySchema = z
  .object({ ...cloneRequestFields, ...jobFields })
  .strict()
  .superRefine((b, ctx) => {
    if (!b.schedule && !b.update_job_id && !b.run_now)
      ctx.addIssue({ code: 'custom', path: ['schedule'], message: 'give a Quartz cron schedule (or run_now)' });
  })
  .meta({ id: 'CreateJobRequest' });
export type CreateJobBody = z.infer<typeof CreateJobBodySchema>;

/** The clone request inside a create-job body. */
export function cloneFieldsOf(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => !jobFieldNames.includes(k)));
}

export const CreateJobResultSchema = z
  .object({
    job_id: z.string(),
    name: z.string(),
    target: z.enum(['temporal', 'databricks-jobs']),
    external_job_id: z.string().nullable(),
    created: z.boolean(),
    quartz_cron_expression: z.string().nullable(),
    timezone_id: z.string(),
    next_run_times: z.array(z.string()),
    run: z.object({ triggered: z.boolean(), run_id: z.string().nullable() }),
  })
  .meta({ id: 'CreateJobResult' });

export const RunJobResultSchema = z
  .object({ job_id: z.string(), triggered: z.boolean(), run_id: z.string().nullable(), message: z.string() })
  .meta({ id: 'RunJobResult' });

export const JobIdParamsSchema = z.object({ id: z.string().min(1).max(200) });
