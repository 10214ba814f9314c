import { z } from 'zod';
import { ValidateRequestSchema } from './analysis';
import { ConvertBodySchema } from './convert';
import { cloneRequestSchema } from './clone';
import { PrintableTextSchema } from './common';
import { RunBodySchema } from './data-quality';
import { IncrementalSyncBodySchema } from './sync';

/**
 * Pipelines (`/api/pipeline/…`): ordered steps run as one `pipeline` job of the kernel. Each step's config is the
 * body of the endpoint it stands for, checked with that endpoint's schema when the pipeline is saved.
 */

const TableFqnSchema = z
  .string()
  .regex(/^[A-Za-z0-9_$-]+\.[A-Za-z0-9_$-]+\.[A-Za-z0-9_$-]+$/, 'catalog.schema.table (letters, digits, _ - $)');

/** Config schema of every step type this service runs. */
export const STEP_CONFIG_SCHEMAS = {
  /** POST /api/clone body; the step waits for the clone job. */
  clone: cloneRequestSchema,
  /** POST /api/incremental/sync body; waits for the sync job. */
  sync: IncrementalSyncBodySchema,
  /** POST /api/data-quality run body; waits for the dq job. */
  dq_run: RunBodySchema,
  /** POST /api/validate body: fails when a table's counts (or checksums) differ. */
  validate: ValidateRequestSchema,
  /** POST /api/convert-to-delta body: fails when any target fails. */
  convert: ConvertBodySchema,
  /** The quality gate: fails below min_pass_rate of the table's enabled checks (or suite). */
  gate: z.strictObject({
    table_fqn: TableFqnSchema,
    suite_id: z.string().min(1).optional(),
    min_pass_rate: z.number().min(0).max(100).optional(),
  }),
  /** A data contract's validation: fails when the contract is violated. */
  contract_validate: z.strictObject({
    name: z.string().min(1).max(200),
    version: z.string().min(1).max(50).optional(),
    table_fqn: TableFqnSchema.optional(),
  }),
  optimize: z.strictObject({ table_fqn: TableFqnSchema }),
  vacuum: z.strictObject({
    table_fqn: TableFqnSchema,
    retention_hours: z.number().int().min(0).max(87_600).optional(),
  }),
  /** A durable timer. */
  wait: z.strictObject({ seconds: z.number().int().min(1).max(604_800) }),
  /** A Standard Webhooks POST (as playbooks send them); the secret is sealed when saved and never shown. */
  webhook: z.strictObject({
    url: z.url({ protocol: /^https?$/ }),
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, 'a Standard Webhooks secret: whsec_ and base64')
      .optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /** A secret already sealed (a cloned or restored pipeline carries it over). */
    secret_sealed: z.record(z.string(), z.string()).optional(),
  }),
  /** An in-app notification (type `pipeline`). */
  notify: z.strictObject({ message: PrintableTextSchema.min(1).max(2000) }),
  /** Waits for …/runs/{id}/steps/{name}/approve or reject. */
  approval: z.strictObject({ message: PrintableTextSchema.max(2000).optional() }),
  /** One read-only statement (SELECT / WITH) unless allow_write, which needs an admin when the pipeline is saved. */
  custom_sql: z.strictObject({ sql: z.string().min(1).max(100_000), allow_write: z.boolean().default(false) }),
} as const;

export const STEP_TYPES = Object.keys(STEP_CONFIG_SCHEMAS) as (keyof typeof STEP_CONFIG_SCHEMAS)[];
export type StepType = keyof typeof STEP_CONFIG_SCHEMAS;
/** Step types the spec names that this service does not run yet (a 422 when a pipeline uses one). */
export const UNAVAILABLE_STEP_TYPES = [] as const;

/**
 * stop (default), continue, {retry: N} (N more attempts) or rollback: the run stops and the steps that completed
 * before are undone newest first through the clone rollback workflow (a clone step's job's rollback logs; the
 * before-image of a sync, optimize or writing custom_sql); other kinds say why not (activities/pipeline/logic/undo.ts).
 */
export const OnFailureSchema = z.union([
  z.enum(['stop', 'continue', 'rollback']),
  z.strictObject({ retry: z.number().int().min(1).max(10) }),
]);
export type OnFailure = z.infer<typeof OnFailureSchema>;

export const StepSchema = z
  .strictObject({
    type: z.string().min(1).max(50),
    /** Unique within the pipeline: [A-Za-z0-9_-]. */
    name: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'letters, digits, _ and -'),
    config: z.record(z.string(), z.unknown()).default({}),
    on_failure: OnFailureSchema.default('stop'),
  })
  .meta({ id: 'PipelineStep' });
export type Step = z.infer<typeof StepSchema>;

export const PipelineBodySchema = z
  .strictObject({
    name: PrintableTextSchema.min(1).max(200),
    description: PrintableTextSchema.max(2000).default(''),
    /** Up to 1000, as a Databricks job's tasks. */
    steps: z.array(StepSchema).min(1).max(1000),
    /**
     * A 5-field cron (or Quartz, 6-7 fields): the Temporal Schedule `pipeline-schedule-<id>` queues a run on it
     * (overlapping runs skipped); `paused` creates it paused (as a cloned or restored job's schedule is).
     */
    schedule: z
      .strictObject({
        cron: PrintableTextSchema.min(9).max(200),
        timezone: z.string().min(1).max(64).default('UTC'),
        paused: z.boolean().default(false),
      })
      .optional(),
  })
  .meta({ id: 'PipelineBody' });
export type PipelineBody = z.infer<typeof PipelineBodySchema>;

export const PipelineSchema = PipelineBodySchema.extend({
  pipeline_id: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
}).meta({ id: 'Pipeline' });

export const STEP_STATUSES = [
  'pending',
  'running',
  'waiting_approval',
  'succeeded',
  'failed',
  'skipped',
  'cancelled',
  'rolled_back',
] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export const StepStateSchema = z.object({
  name: z.string(),
  type: z.string(),
  status: z.enum(STEP_STATUSES),
  attempts: z.number(),
  child_job_id: z.string().nullable(),
  /** The step's endpoint response body (a job step: the job's record when it ended). */
  output: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
});
export type StepState = z.infer<typeof StepStateSchema>;

export const RunStatusSchema = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']);
export const PipelineRunSchema = z
  .object({
    run_id: z.string(),
    job_id: z.string(),
    pipeline_id: z.string(),
    pipeline_name: z.string(),
    status: RunStatusSchema,
    steps: z.array(StepStateSchema),
    error: z.string().nullable(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
  })
  .meta({ id: 'PipelineRun' });

/** What the pipeline workflow runs: the definition as it was when the run was asked for. */
export const PipelineJobInputSchema = z.object({
  jobId: z.string(),
  pipelineId: z.string(),
  steps: z.array(StepSchema),
});
export type PipelineJobInput = z.infer<typeof PipelineJobInputSchema>;

export const PipelineIdParamsSchema = z.object({ pipeline_id: z.string().min(1).max(100) });
export const RunIdParamsSchema = z.object({ run_id: z.string().min(1).max(100) });
export const StepDecisionParamsSchema = RunIdParamsSchema.extend({ step: z.string().min(1).max(100) });
export const RunsQuerySchema = z.object({
  pipeline_id: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export const TemplateCreateBodySchema = z
  .strictObject({
    name: PrintableTextSchema.min(1).max(200).optional(),
    description: PrintableTextSchema.max(2000).optional(),
    /** Per step name, config keys merged over the template's (a deep copy: the template never changes). */
    overrides: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  })
  .default({ overrides: {} });
