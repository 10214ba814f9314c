import { z } from 'zod';

const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const Ident = z.string().min(1).max(255).regex(IDENT, 'expected a name of letters, digits, _ and -');
export const TableFqnSchema = z
  .string()
  .max(800)
  .regex(
    /^[A-Za-z_][A-Za-z0-9_-]*\.[A-Za-z_][A-Za-z0-9_-]*\.[A-Za-z_][A-Za-z0-9_-]*$/,
    'expected catalog.schema.table',
  );

/** `orders` (the contract) or `orders@1.0` (one version of it). */
export const ContractIdParamsSchema = z.object({
  id: z
    .string()
    .max(120)
    .regex(/^[A-Za-z][A-Za-z0-9_-]{0,99}(@\d+\.\d+)?$/, 'expected a contract id name or name@major.minor'),
});

/** An ODCS v3 document (checked against the official ODCS JSON Schema, not by this schema). */
export const OdcsDocumentSchema = z
  .record(z.string(), z.unknown())
  .describe(
    'An ODCS v3.0.2 data contract document (apiVersion, kind, id name@major.minor, version, status, schema, …)',
  );

export const ContractImportSchema = z
  .object({
    yaml: z.string().min(1).max(1_000_000).optional().describe('The ODCS document as YAML'),
    yaml_content: z.string().min(1).max(1_000_000).optional().describe('Same as yaml'),
  })
  .refine((b) => b.yaml || b.yaml_content, { message: 'yaml is required', path: ['yaml'] });

const Bool = z.boolean();
export const GenerateOptionsSchema = z.object({
  include_quality_rules: Bool.default(true),
  include_dqx_profiling: Bool.default(false),
  include_lineage: Bool.default(true),
  include_sla: Bool.default(true),
  include_tags: Bool.default(true),
  include_properties: Bool.default(true),
  include_masks: Bool.default(true),
  include_row_filters: Bool.default(true),
  include_history: Bool.default(true),
});

export const ContractGenerateSchema = z.object({
  scope: z.literal('table').default('table'),
  catalog: Ident,
  schema: Ident,
  table: Ident,
  options: GenerateOptionsSchema.prefault({}),
  name: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_-]{0,99}$/)
    .optional()
    .describe('Contract name (default: the table name)'),
  save: z.boolean().default(true).describe('Store the generated document as the contract draft'),
});

export const ContractUpdateSchema = z
  .object({
    document: OdcsDocumentSchema.optional(),
    yaml: z.string().min(1).max(1_000_000).optional(),
  })
  .refine((b) => b.document || b.yaml, { message: 'document or yaml is required', path: ['document'] });

export const AttachSchema = z.object({ table_fqn: TableFqnSchema });
export const DetachQuerySchema = z.object({ table_fqn: TableFqnSchema.optional() });
export const ValidateBodySchema = z
  .object({ table_fqn: TableFqnSchema.optional().describe('Default: every attached table') })
  .prefault({});

export const ContractStatusSchema = z.enum(['draft', 'active', 'archived']);

export const ContractViewSchema = z.object({
  name: z.string(),
  status: ContractStatusSchema,
  draft_id: z.string().nullable(),
  latest_version: z.string().nullable(),
  versions: z.array(z.string()),
  attached_to: z.array(z.string()),
  schedule: z.string().nullable(),
  enforcement_endpoint: z.string().nullable(),
  severity: z.enum(['error', 'warn']),
  created_by: z.string(),
  updated_by: z.string(),
  updated_at: z.string(),
});

export const ContractDocumentViewSchema = ContractViewSchema.extend({
  id: z.string(),
  version: z.string(),
  immutable: z.boolean().describe('True for a published version'),
  document: OdcsDocumentSchema,
});

export const ViolationSchema = z.object({
  type: z.string(),
  message: z.string(),
  column: z.string().optional(),
  rule: z.string().optional(),
  observed: z.unknown().optional(),
  expected: z.unknown().optional(),
});
const SectionSchema = z.object({
  passed: z.boolean(),
  violations: z.array(ViolationSchema),
  skipped: z.array(z.string()),
});

export const TableValidationSchema = z.object({
  validation_id: z.number(),
  table_fqn: z.string(),
  status: z.enum(['passed', 'failed']),
  drift: z.boolean(),
  violation_count: z.number(),
  sections: z.object({
    fundamentals: SectionSchema,
    schema: SectionSchema,
    quality: SectionSchema,
    sla: SectionSchema,
  }),
});

export const ValidationResultSchema = z.object({
  contract_id: z.string(),
  name: z.string(),
  version: z.string(),
  severity: z.enum(['error', 'warn']),
  enforcement_endpoint: z.string().nullable(),
  status: z.enum(['passed', 'failed']).describe('failed (non-success) means drift or a violation'),
  results: z.array(TableValidationSchema),
  enforcement: z.object({ endpoint: z.string(), delivered: z.boolean(), error: z.string().optional() }).optional(),
});

export const ValidationRecordSchema = z.object({
  validation_id: z.number(),
  contract_id: z.string(),
  version: z.string(),
  table_fqn: z.string(),
  status: z.string(),
  severity: z.string(),
  trigger: z.string(),
  job_id: z.string().nullable(),
  violation_count: z.number(),
  sections: z.record(z.string(), z.unknown()),
  created_by: z.string(),
  created_at: z.string(),
});

export const DeleteResultSchema = z.object({
  name: z.string(),
  action: z.enum(['detached', 'archived']),
  detached: z.array(z.string()),
  status: ContractStatusSchema,
});
