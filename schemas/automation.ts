import { z } from 'zod';
import { PrintableTextSchema } from './common';

/**
 * Automation: typed events, playbooks (trigger → CEL condition → actions, with an hourly limit) and their
 * executions. Every shape of /api/playbooks is declared here once.
 */

export const TRIGGER_TYPES = [
  'dq_failure',
  'anomaly',
  'schema_drift',
  'sla_breach',
  'contract_violation',
  'job_failed',
  'job_succeeded',
  'schedule',
] as const;
export const TriggerTypeSchema = z.enum(TRIGGER_TYPES).meta({ id: 'PlaybookTriggerType' });
export type TriggerType = z.infer<typeof TriggerTypeSchema>;

export const SEVERITIES = ['info', 'warning', 'error', 'critical'] as const;
export const SeveritySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof SeveritySchema>;

/** `catalog.schema.table` with `*` wildcards in any part (`prod.*.orders`, `*`). */
const TableGlobSchema = z
  .string()
  .min(1)
  .max(500)
  .regex(/^[A-Za-z0-9_*.$-]+$/, 'a table name or glob: letters, digits, _ - $ . and *');

const tableScoped = {
  tables: z.array(TableGlobSchema).max(100).optional(),
  min_severity: SeveritySchema.optional(),
};

/** trigger_config of each trigger_type (strict: an unknown key is refused, naming it). */
export const TriggerConfigSchemas = {
  dq_failure: z.strictObject(tableScoped),
  anomaly: z.strictObject(tableScoped),
  schema_drift: z.strictObject(tableScoped),
  sla_breach: z.strictObject(tableScoped),
  contract_violation: z.strictObject({ ...tableScoped, contract_ids: z.array(z.string().min(1)).max(100).optional() }),
  job_failed: z.strictObject({ ...tableScoped, job_types: z.array(z.string().min(1).max(50)).max(50).optional() }),
  job_succeeded: z.strictObject({ ...tableScoped, job_types: z.array(z.string().min(1).max(50)).max(50).optional() }),
  schedule: z.strictObject({
    /** Standard 5-field cron (`min hour dom mon dow`). */
    cron: PrintableTextSchema.min(9).max(200),
    timezone: z.string().min(1).max(64).default('UTC'),
  }),
} satisfies Record<TriggerType, z.ZodType>;
export type TriggerConfig = Record<string, unknown>;

/** The legacy condition form; it compiles to a CEL expression over `event`. */
export const LegacyConditionSchema = z.strictObject({
  field: z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*(\.[a-zA-Z_][a-zA-Z0-9_]*)*$/, 'a field name such as failure_rate'),
  operator: z.enum(['==', '!=', '>', '>=', '<', '<=', 'eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'contains']),
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]),
});
export type LegacyCondition = z.infer<typeof LegacyConditionSchema>;

/** A CEL expression over `event`, or legacy conditions (all must hold). */
export const ConditionsSchema = z.union([
  z.string().max(2000),
  z.array(LegacyConditionSchema).max(50),
  z.strictObject({ cel: z.string().max(2000) }),
]);

export const ACTION_TYPES = [
  'start_clone',
  'start_sync',
  'run_dq',
  'run_pipeline',
  'quarantine',
  'pause_schedule',
  'resume_schedule',
  'tag_table',
  'notify',
  'webhook',
  'open_case',
] as const;
export const ActionTypeSchema = z.enum(ACTION_TYPES);
export type ActionType = z.infer<typeof ActionTypeSchema>;

export const ActionSchema = z
  .strictObject({
    type: ActionTypeSchema,
    /** Action parameters; strings may use `{{event.x}}` (mustache). A webhook's `secret` is write-only. */
    params: z.record(z.string(), z.unknown()).default({}),
    /** stop (default): later actions are skipped; continue: the next action runs. */
    on_failure: z.enum(['stop', 'continue']).default('stop'),
  })
  .meta({ id: 'PlaybookAction' });
export type Action = z.infer<typeof ActionSchema>;

export const PlaybookBodySchema = z
  .strictObject({
    name: PrintableTextSchema.min(1).max(200),
    description: PrintableTextSchema.max(2000).default(''),
    trigger_type: TriggerTypeSchema,
    trigger_config: z.record(z.string(), z.unknown()).default({}),
    conditions: ConditionsSchema.optional(),
    actions: z.array(ActionSchema).min(1).max(20),
    max_executions_per_hour: z.number().int().min(1).max(10_000).default(5),
    enabled: z.boolean().default(true),
  })
  .meta({ id: 'PlaybookBody' });
export type PlaybookBody = z.infer<typeof PlaybookBodySchema>;

export const PlaybookSchema = z
  .object({
    playbook_id: z.string(),
    name: z.string(),
    description: z.string(),
    trigger_type: TriggerTypeSchema,
    trigger_config: z.record(z.string(), z.unknown()),
    /** The CEL expression the conditions compiled to ('' = always). */
    conditions: z.string(),
    /** Secrets are never shown: a webhook's params carry `secret_set: true` instead. */
    actions: z.array(ActionSchema),
    max_executions_per_hour: z.number(),
    enabled: z.boolean(),
    created_by: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Playbook' });

export const EXECUTION_STATUSES = [
  'queued',
  'running',
  'succeeded',
  'partial',
  'failed',
  'not_matched',
  'rate_limited',
] as const;
export const ExecutionStatusSchema = z.enum(EXECUTION_STATUSES);
export type ExecutionStatus = z.infer<typeof ExecutionStatusSchema>;

export const ACTION_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'skipped', 'dry_run'] as const;
export const ActionResultSchema = z.object({
  type: ActionTypeSchema,
  status: z.enum(ACTION_STATUSES),
  attempts: z.number(),
  output: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
});
export type ActionResult = z.infer<typeof ActionResultSchema>;

export const ExecutionSchema = z
  .object({
    execution_id: z.string(),
    playbook_id: z.string(),
    playbook_name: z.string(),
    /** The event type that fired it, `manual` (execute) or `schedule`. */
    trigger: z.string(),
    event_id: z.string().nullable(),
    event: z.record(z.string(), z.unknown()),
    status: ExecutionStatusSchema,
    dry_run: z.boolean(),
    actions: z.array(ActionResultSchema),
    error: z.string().nullable(),
    started_at: z.string(),
    completed_at: z.string().nullable(),
  })
  .meta({ id: 'PlaybookExecution' });
export type Execution = z.infer<typeof ExecutionSchema>;

export const ExecuteBodySchema = z
  .strictObject({
    /** The event the actions see as `event` (default: a `manual` event with no table). */
    event: z.record(z.string(), z.unknown()).optional(),
    /** Renders every action's parameters and performs nothing. */
    dry_run: z.boolean().default(false),
  })
  .default({ dry_run: false });

export const PlaybookIdParamsSchema = z.object({ playbook_id: z.string().min(1).max(100) });

export const PlaybookTemplateSchema = z.object({
  template_id: z.string(),
  name: z.string(),
  description: z.string(),
  playbook: PlaybookBodySchema,
});
