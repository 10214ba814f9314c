import { z } from 'zod';

/** Caller roles, least to most. An API key carries one; every route declares the least it needs. */
export const ROLES = ['viewer', 'editor', 'steward', 'admin'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** True when `have` is at least `need` in the order viewer < editor < steward < admin. */
export function roleAtLeast(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

/** Who is calling: the key's name and role (`anonymous`, admin, when no keys are configured). */
export interface Caller {
  name: string;
  role: Role;
}

/** Operations an access policy may allow or deny (`*` in a rule means all of them). */
export const POLICY_OPERATIONS = ['clone', 'sync', 'read', 'write', 'validate'] as const;
export const PolicyOperationSchema = z.enum(POLICY_OPERATIONS);
export type PolicyOperation = z.infer<typeof PolicyOperationSchema>;

/** A catalog/schema pattern: `*` and `?` wildcards over a name (`prod_*`), matched case-insensitively in full. */
const PatternSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_*?.-]+$/, 'expected a name pattern of letters, digits, _ - . and the wildcards * ?');

export const PolicyCreateSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9_.-]+$/, 'expected letters, digits, _ . -')
      .describe('Unique; a refusal names it'),
    principals: z
      .array(z.string().min(1).max(100))
      .min(1)
      .describe('Key names or roles (viewer, editor, steward, admin) the rule applies to; * is everyone'),
    allowed_sources: z.array(PatternSchema).default(['*']).describe('Source catalogs (patterns) the rule covers'),
    allowed_destinations: z
      .array(PatternSchema)
      .default(['*'])
      .describe('Destination catalogs (patterns) the rule covers'),
    allowed_schemas: z.array(PatternSchema).default(['*']).describe('Schemas (patterns) the rule covers'),
    allowed_operations: z
      .array(z.union([PolicyOperationSchema, z.literal('*')]))
      .default(['*'])
      .describe('Operations the rule covers'),
    deny: z.boolean().default(false).describe('A deny rule refuses what it covers, before any allow rule is looked at'),
    description: z.string().max(1000).optional(),
  })
  .meta({ id: 'AccessPolicyCreate' });
export type PolicyCreate = z.infer<typeof PolicyCreateSchema>;

export const PolicySchema = PolicyCreateSchema.extend({
  description: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
}).meta({ id: 'AccessPolicy' });
export type Policy = z.infer<typeof PolicySchema>;

export const PolicyNameParamsSchema = z.object({ name: z.string().min(1).max(100) });

/** What an access check is about: an operation and the catalogs/schemas it touches. */
export interface AccessRequest {
  operation: PolicyOperation;
  source?: string | null;
  destination?: string | null;
  /** Schemas touched; absent = every schema of the catalog(s). */
  schemas?: string[];
}

export const PluginSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    enabled: z.boolean(),
    updated_by: z.string().nullable(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'Plugin' });
export type Plugin = z.infer<typeof PluginSchema>;

export const PluginToggleSchema = z.object({
  name: z.string().min(1).max(100),
  enabled: z.boolean().default(true),
});

export const GLOSSARY_STATUSES = ['draft', 'approved', 'deprecated'] as const;
export const GlossaryStatusSchema = z.enum(GLOSSARY_STATUSES);

const termText = (max: number) => z.string().trim().min(1).max(max);

export const GlossaryTermCreateSchema = z
  .object({
    name: termText(200),
    definition: termText(10_000),
    abbreviation: termText(50).optional(),
    domain: termText(200).default('General'),
    owner: termText(200).optional(),
    tags: z.array(termText(100)).max(50).default([]),
  })
  .meta({ id: 'GlossaryTermCreate' });

export const GlossaryTermPatchSchema = z
  .object({
    name: termText(200).optional(),
    definition: termText(10_000).optional(),
    abbreviation: termText(50).nullable().optional(),
    domain: termText(200).optional(),
    owner: termText(200).nullable().optional(),
    tags: z.array(termText(100)).max(50).optional(),
  })
  .refine((p) => Object.keys(p).length > 0, 'give at least one field to change')
  .meta({ id: 'GlossaryTermPatch' });

/** A column a term describes: `catalog.schema.table.column`. */
export const ColumnFqnSchema = z
  .string()
  .regex(/^[^.\s]+\.[^.\s]+\.[^.\s]+\.[^.\s]+$/, 'expected catalog.schema.table.column');

export const GlossaryLinkSchema = z.object({
  column_fqns: z.array(ColumnFqnSchema).min(1).max(500),
});

export const GlossaryChangeSchema = z
  .object({
    change_type: z.string(),
    changed_by: z.string(),
    changed_at: z.string(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'GovernanceChange' });

export const GlossaryTermSchema = z
  .object({
    term_id: z.string(),
    name: z.string(),
    abbreviation: z.string().nullable(),
    definition: z.string(),
    domain: z.string(),
    owner: z.string().nullable(),
    tags: z.array(z.string()),
    status: GlossaryStatusSchema,
    linked_columns: z.array(z.string()),
    created_by: z.string(),
    created_at: z.string(),
    updated_by: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'GlossaryTerm' });
export type GlossaryTerm = z.infer<typeof GlossaryTermSchema>;

export const GlossaryTermDetailSchema = GlossaryTermSchema.extend({ history: z.array(GlossaryChangeSchema) }).meta({
  id: 'GlossaryTermDetail',
});

export const GlossaryListQuerySchema = z.object({
  status: GlossaryStatusSchema.optional(),
  domain: z.string().max(200).optional(),
  q: z.string().max(200).optional().describe('Case-insensitive text in the name, abbreviation or definition'),
});

export const TermIdParamsSchema = z.object({ term_id: z.string().min(1).max(100) });
