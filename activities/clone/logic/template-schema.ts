import { z } from 'zod';
import { cloneTypeSchema, loadTypeSchema, piiMaskRuleSchema, throttleSettingsSchema } from '../../../schemas/clone';
import { DqGateConfigSchema } from '../../../schemas/data-quality';

/**
 * A clone template (YAML, one file per template). Objects are strict so that a misspelt key fails loading
 * with its path instead of being silently ignored. Keys beyond the spec's table (copy_security,
 * validate_checksum, compare_dq_after_clone, quiesce_source, masking.strategy, throttle, …) are optional.
 */
const flag = z.boolean().optional();

export const templateSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'letters, digits, - and _ only'),
  description: z.string().default(''),
  version: z.union([z.string(), z.number()]).transform(String).default('1.0'),
  clone_options: z
    .strictObject({
      clone_type: cloneTypeSchema.optional(),
      load_type: loadTypeSchema.optional(),
      max_workers: z.number().int().min(1).max(64).optional(),
      parallel_tables: z.number().int().min(1).max(64).optional(),
      /**
       * Create tables with the source's columns and no rows: the job runs as a DEEP select-based copy with
       * where_clauses `{'*': 'FALSE'}` (see effects.ts); a request's own where_clauses or SHALLOW wins.
       */
      schema_only: flag,
    })
    .optional(),
  metadata: z
    .strictObject({
      copy_permissions: flag,
      copy_ownership: flag,
      copy_tags: flag,
      copy_properties: flag,
      copy_constraints: flag,
      copy_comments: flag,
      copy_security: flag,
    })
    .optional(),
  safety: z
    .strictObject({
      enable_rollback: flag,
      auto_rollback: flag,
      rollback_threshold: z.number().min(0).max(100).optional(),
      /**
       * Kept for compatibility: jobs are always durable (Temporal history + per-table "already done" state),
       * so `true` is always honoured and `false` cannot turn durability off.
       */
      checkpoint: flag,
      validate_after_clone: flag,
      validate_checksum: flag,
      compare_dq_after_clone: flag,
      dq_drift_rollback_pct: z.number().min(0).max(100).optional(),
      quiesce_source: flag,
      /** Sign a provenance manifest at job end; the envelope is kept in the job summary as `provenance`. */
      compliance_report: flag,
    })
    .optional(),
  filters: z
    .strictObject({
      include_schemas: z.array(z.string().min(1)).optional(),
      exclude_schemas: z.array(z.string().min(1)).optional(),
      /** Leave out schemas whose tags mark them as holding personal data. */
      exclude_pii_tagged_schemas: flag,
    })
    .optional(),
  masking: z
    .strictObject({
      enabled: flag,
      strategy: z.enum(['hash', 'redact', 'partial', 'email', 'null']).optional(),
      /**
       * YAML list of `{column: <regex>, strategy}` (path relative to the template file): per-column strategies
       * for auto_mask_pii; matched columns are masked even without PII tags. The loader reads it into `rules`.
       */
      rules_file: z.string().min(1).optional(),
      /** Rules written inline (the loader appends the rules_file's rules after them). */
      rules: z.array(piiMaskRuleSchema).optional(),
    })
    .optional(),
  /** Whether the job's end records a success / failure notification (default true for both). */
  notifications: z.strictObject({ on_success: flag, on_failure: flag }).optional(),
  throttle: throttleSettingsSchema.optional(),
  /** Quality gate on the source before the clone writes anything (enabled, table_fqn, suite_id, min_pass_rate). */
  dq_gate: DqGateConfigSchema.optional(),
});

export type CloneTemplate = z.infer<typeof templateSchema>;

/** Template settings that are not clone request fields; carried beside the options for the job to act on. */
export interface TemplateSettings {
  name: string;
  version: string;
  checkpoint?: boolean;
  schema_only?: boolean;
  compliance_report?: boolean;
  exclude_pii_tagged_schemas?: boolean;
  masking_rules_file?: string;
  notifications?: { on_success?: boolean; on_failure?: boolean };
}
