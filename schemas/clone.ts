import { z } from 'zod';
import { IdentifierSchema, PrintableTextSchema, anyCasePattern, regexSchema } from './common';
import { DqGateConfigSchema } from './data-quality';

/**
 * The Clone request (body of POST /api/clone). The wire schema applies NO defaults: which fields a user set
 * matters for precedence (built-in defaults < template < config file < request fields). Defaults live in
 * CLONE_DEFAULTS and are applied by `applyCloneDefaults` after template and config merging.
 */

const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v);
const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);

export const cloneTypeSchema = z.preprocess(upper, z.enum(['DEEP', 'SHALLOW']));
export const loadTypeSchema = z.preprocess(upper, z.enum(['FULL', 'INCREMENTAL', 'SELECTIVE']));
export const targetFormatSchema = z.preprocess(upper, z.enum(['DELTA', 'ICEBERG']));

const regexString = regexSchema();

const isoTimestamp = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'not a valid timestamp (use ISO 8601)');

export const includeObjectSchema = z
  .object({
    schema: IdentifierSchema,
    name: IdentifierSchema,
    type: z.preprocess(lower, z.enum(['table', 'view', 'function', 'volume'])),
  })
  .strict();

/**
 * A target workspace for cross-workspace clones and fan-out. Either a saved target connection by name,
 * a local lakehouse root (embedded workspaces), or a Databricks workspace.
 */
export const targetWorkspaceSchema = z
  .object({
    name: IdentifierSchema.regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only').optional(),
    kind: z.enum(['local', 'databricks']).optional(),
    root: PrintableTextSchema.min(1).optional(),
    host: z.string().url().optional(),
    auth_method: z.enum(['token', 'service_principal', 'cli_profile']).optional(),
    token: PrintableTextSchema.optional(),
    client_id: IdentifierSchema.optional(),
    client_secret: PrintableTextSchema.optional(),
    tenant_id: IdentifierSchema.optional(),
    profile: IdentifierSchema.optional(),
    warehouse_id: IdentifierSchema.optional(),
    destination_catalog: IdentifierSchema.optional(),
    target_format: targetFormatSchema.optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    const kind = t.kind ?? (t.root ? 'local' : t.host ? 'databricks' : undefined);
    if (!kind && !t.name) {
      ctx.addIssue({ code: 'custom', message: 'give a saved target name, a local root, or a Databricks host' });
    }
    if (kind === 'local' && !t.root)
      ctx.addIssue({ code: 'custom', path: ['root'], message: 'required for a local target' });
    if (kind === 'databricks' && !t.name) {
      if (!t.host) ctx.addIssue({ code: 'custom', path: ['host'], message: 'required for a Databricks target' });
      if (!t.warehouse_id)
        ctx.addIssue({ code: 'custom', path: ['warehouse_id'], message: 'required for a Databricks target' });
    }
  });

const nonNegInt = z.number().int().min(0);

const DAY = '(mon|monday|tue|tues|tuesday|wed|wednesday|thu|thur|thurs|thursday|fri|friday|sat|saturday|sun|sunday)';
const DAYS = `${DAY}(-${DAY})?`;
const THROTTLE_WINDOW_TIME = anyCasePattern(
  `^(([01]\\d|2[0-3]):[0-5]\\d-([01]\\d|2[0-3]):[0-5]\\d|${DAYS}(\\s*,\\s*${DAYS})*)$`,
);
export const throttlePresetSchema = z.preprocess(lower, z.enum(['low', 'medium', 'high', 'max']));
/** `HH:MM-HH:MM` (may wrap past midnight) or day names (`mon`, `saturday,sunday`, `mon-fri`). */
export const throttleWindowSchema = z
  .object({
    time: z
      .string()
      .regex(THROTTLE_WINDOW_TIME, 'expected HH:MM-HH:MM or day names such as mon-fri or saturday,sunday'),
    preset: throttlePresetSchema,
  })
  .strict();
/** Throttle settings: a preset, custom limits over it, and windows that pick the preset in force when a table starts. */
export const throttleSettingsSchema = z
  .object({
    preset: throttlePresetSchema.optional(),
    max_workers: z.number().int().min(1).max(64).optional(),
    parallel_tables: z.number().int().min(1).max(64).optional(),
    max_rps: z.number().min(0).optional(),
    tables_per_minute: z.number().int().min(0).optional(),
    schedule: z.array(throttleWindowSchema).optional(),
  })
  .strict();
const posInt = z.number().int().min(1);

/** Masking rule: columns whose name matches `column` (case-insensitive regex search) get `strategy`. */
export const piiMaskRuleSchema = z.strictObject({
  column: regexSchema('i').min(1).max(200),
  strategy: z.preprocess(lower, z.enum(['hash', 'redact', 'partial', 'email', 'null'])),
});
export type PiiMaskRule = z.infer<typeof piiMaskRuleSchema>;

export const cloneRequestFields = {
  source_catalog: IdentifierSchema,
  destination_catalog: IdentifierSchema,
  warehouse_id: IdentifierSchema.optional(),
  clone_type: cloneTypeSchema.optional(),
  load_type: loadTypeSchema.optional(),
  dry_run: z.boolean().optional(),
  max_workers: posInt.max(64).optional(),
  parallel_tables: posInt.max(64).optional(),
  include_schemas: z.array(IdentifierSchema).optional(),
  exclude_schemas: z.array(IdentifierSchema).optional(),
  include_tables_regex: regexString.optional(),
  exclude_tables_regex: regexString.optional(),
  copy_permissions: z.boolean().optional(),
  copy_ownership: z.boolean().optional(),
  copy_tags: z.boolean().optional(),
  copy_properties: z.boolean().optional(),
  copy_security: z.boolean().optional(),
  copy_constraints: z.boolean().optional(),
  copy_comments: z.boolean().optional(),
  enable_rollback: z.boolean().optional(),
  validate_after_clone: z.boolean().optional(),
  validate_checksum: z.boolean().optional(),
  order_by_size: z.preprocess(lower, z.enum(['asc', 'desc'])).optional(),
  max_rps: z.number().min(0).optional(),
  as_of_timestamp: isoTimestamp.optional(),
  as_of_version: nonNegInt.optional(),
  location: PrintableTextSchema.min(1).optional(),
  serverless: z.boolean().optional(),
  volume: IdentifierSchema.optional(),
  include_objects: z.array(includeObjectSchema).optional(),
  target_workspace: targetWorkspaceSchema.optional(),
  target_workspaces: z.array(targetWorkspaceSchema).min(1).optional(),
  clone_views: z.boolean().optional(),
  clone_functions: z.boolean().optional(),
  clone_volumes: z.boolean().optional(),
  /** A cloned view reading objects the filters leave out pulls them in (instead of being skipped). */
  include_dependencies: z.boolean().optional(),
  volume_max_file_mb: posInt.optional(),
  max_duration_min: posInt.optional(),
  max_tables: posInt.optional(),
  source_snapshot_id: z.string().uuid().optional(),
  target_format: targetFormatSchema.optional(),
  iceberg_physical: z.boolean().optional(),
  auto_mask_pii: z.boolean().optional(),
  enable_retry: z.boolean().optional(),
  compare_dq_after_clone: z.boolean().optional(),
  dq_drift_rollback_pct: z.number().min(0).max(100).optional(),
  /** Quality gate evaluated on the source before anything is written (schemas/data-quality DqGateConfigSchema). */
  dq_gate: DqGateConfigSchema.optional(),
  /** Keys name tables (`schema.table`, `table` or `*`); values are predicates, run read-only. */
  where_clauses: z.record(IdentifierSchema, PrintableTextSchema.min(1)).optional(),
  clone_tbl_properties: z.record(IdentifierSchema, PrintableTextSchema).optional(),
  quiesce_source: z.boolean().optional(),
  template: IdentifierSchema.optional(),
  // Safety options (no wire default; resolved by activities/clone/templates after template and config merge).
  auto_rollback: z.boolean().optional(),
  rollback_threshold: z.number().min(0).max(100).optional(),
  pii_mask_strategy: z.preprocess(lower, z.enum(['hash', 'redact', 'partial', 'email', 'null'])).optional(),
  /** With auto_mask_pii: per-column strategies; matched columns are masked even without PII tags. */
  pii_mask_rules: z.array(piiMaskRuleSchema).max(100).optional(),
  throttle: throttleSettingsSchema.optional(),
};

/** Server-mode aliases: source, destination, validate. */
function normaliseAliases(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const { source, destination, validate, ...rest } = input as Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  if (source !== undefined && out.source_catalog === undefined) out.source_catalog = source;
  if (destination !== undefined && out.destination_catalog === undefined) out.destination_catalog = destination;
  if (validate !== undefined && out.validate_after_clone === undefined) out.validate_after_clone = validate;
  return out;
}

export const cloneRequestSchema = z.preprocess(
  normaliseAliases,
  z
    .object(cloneRequestFields)
    .strict()
    .superRefine((r, ctx) => {
      const crossWorkspace = Boolean(r.target_workspace || r.target_workspaces);
      if (r.source_catalog === r.destination_catalog && !crossWorkspace) {
        ctx.addIssue({
          code: 'custom',
          path: ['destination_catalog'],
          message: 'must differ from source_catalog unless target_workspace is set',
        });
      }
      if (r.as_of_timestamp !== undefined && r.as_of_version !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['as_of_version'],
          message: 'give as_of_version or as_of_timestamp, not both',
        });
      }
      if (r.iceberg_physical && (r.target_format ?? 'DELTA') !== 'ICEBERG') {
        ctx.addIssue({ code: 'custom', path: ['iceberg_physical'], message: 'only valid with target_format ICEBERG' });
      }
      if (r.target_workspace && r.target_workspaces) {
        ctx.addIssue({
          code: 'custom',
          path: ['target_workspaces'],
          message: 'give target_workspace or target_workspaces, not both',
        });
      }
    }),
);

export type CloneRequestInput = z.infer<typeof cloneRequestSchema>;
export type TargetWorkspace = z.infer<typeof targetWorkspaceSchema>;
export type IncludeObject = z.infer<typeof includeObjectSchema>;

export const CLONE_DEFAULTS = {
  clone_type: 'DEEP',
  load_type: 'FULL',
  dry_run: false,
  max_workers: 4,
  parallel_tables: 1,
  include_schemas: [] as string[],
  exclude_schemas: ['information_schema', 'default'],
  copy_permissions: true,
  copy_ownership: true,
  copy_tags: true,
  copy_properties: true,
  copy_security: true,
  copy_constraints: true,
  copy_comments: true,
  enable_rollback: true,
  validate_after_clone: false,
  validate_checksum: false,
  max_rps: 0,
  serverless: false,
  clone_views: true,
  clone_functions: true,
  clone_volumes: true,
  include_dependencies: false,
  volume_max_file_mb: 500,
  target_format: 'DELTA',
  iceberg_physical: false,
  auto_mask_pii: false,
  enable_retry: true,
  compare_dq_after_clone: false,
  dq_drift_rollback_pct: 5.0,
  where_clauses: {} as Record<string, string>,
  clone_tbl_properties: {} as Record<string, string>,
  quiesce_source: false,
} as const;

type Defaulted = typeof CLONE_DEFAULTS;
/** A clone request with every defaulted field filled in. */
export type CloneOptions = Omit<CloneRequestInput, keyof Defaulted> & {
  -readonly [K in keyof Defaulted]-?: K extends keyof CloneRequestInput ? NonNullable<CloneRequestInput[K]> : never;
};

export function applyCloneDefaults(input: CloneRequestInput): CloneOptions {
  const out: Record<string, unknown> = { ...input };
  for (const [key, value] of Object.entries(CLONE_DEFAULTS)) {
    if (out[key] === undefined)
      out[key] = Array.isArray(value) ? [...value] : typeof value === 'object' ? { ...value } : value;
  }
  return out as CloneOptions;
}
