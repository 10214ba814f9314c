import { z } from 'zod';
import { IdentifierSchema, PrintableTextSchema } from './common';
import { TableFqnSchema } from './data-quality';

/**
 * Master data management shapes, written once: entity models, source registrations, synthetic data and the
 * ingest job. Field names follow the specification's "MDM resources".
 */

/** An attribute or entity-type name: it becomes a column and a table-name part, so the portable subset. */
export const MdmNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,62}$/, 'must be lower-case letters, digits and _ (starting with a letter, max 63)');

/** How an attribute's values are standardised at ingest (see activities/mdm/logic/standardise.ts). */
export const AttributeKindSchema = z.enum(['name', 'email', 'phone', 'date', 'id', 'code']).meta({
  description:
    'name: lower-case letters (accents kept) and single spaces; email: trimmed lower case; phone: digits only; ' +
    'date: ISO yyyy-MM-dd; id: upper-case letters and digits; code: the code of a reference domain the value ' +
    'is an alias of on the ingest day (NULL and counted as unknown otherwise)',
});

/**
 * One comparison level, from the most to the least similar. `exact`: equal standardised values;
 * `jaro_winkler`: jaro_winkler_similarity ≥ threshold; `levenshtein`: edit distance ≤ max; `date_distance`:
 * at most `days` apart.
 */
export const ComparisonLevelSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('exact') }),
  z.strictObject({ type: z.literal('jaro_winkler'), threshold: z.number().gt(0).lt(1) }),
  z.strictObject({ type: z.literal('levenshtein'), max: z.number().int().min(1).max(10) }),
  z.strictObject({ type: z.literal('date_distance'), days: z.number().int().min(1).max(36_600) }),
]);

export const SurvivorshipSchema = z.enum([
  'most_trusted',
  'most_recent',
  'most_complete',
  'longest',
  'most_frequent',
  'source_priority',
]);

export const AttributeSpecSchema = z.strictObject({
  kind: AttributeKindSchema,
  /** Levels after `exact` (which is always the first); none: exact or not. */
  comparisons: z.array(ComparisonLevelSchema).max(5).default([]),
  /** Present on both records and different → never merged automatically. */
  hard_identifier: z.boolean().default(false),
  survivorship: SurvivorshipSchema.default('most_trusted'),
  /** kind `code`: the reference domain (GET /api/mdm/reference-data) whose aliases standardise the values. */
  domain: MdmNameSchema.optional(),
});

/** A blocking key part: an attribute, or its first `prefix` characters. */
export const BlockingKeySchema = z.union([
  MdmNameSchema,
  z.strictObject({ attribute: MdmNameSchema, prefix: z.number().int().min(1).max(50) }),
]);

export const BlockingRuleSchema = z.strictObject({
  name: MdmNameSchema,
  /** Records whose parts are all equal (and not null) are compared. */
  keys: z.array(BlockingKeySchema).min(1).max(5),
});

export const DeterministicRuleSchema = z.strictObject({
  name: MdmNameSchema,
  /** Records equal (and not null) on every attribute listed match with score 100. */
  attributes: z.array(MdmNameSchema).min(1).max(10),
});

/** A five-field cron expression (minute hour day-of-month month day-of-week). */
const CronSchema = z
  .string()
  .regex(/^\s*\S+(\s+\S+){4}\s*$/, 'must be a five-field cron expression (minute hour day month weekday)');

export const MdmModelSchema = z
  .strictObject({
    entity_type: MdmNameSchema,
    description: PrintableTextSchema.pipe(z.string().max(2000)).optional(),
    attributes: z.record(MdmNameSchema, AttributeSpecSchema),
    deterministic_rules: z.array(DeterministicRuleSchema).max(20).default([]),
    blocking_rules: z.array(BlockingRuleSchema).min(1).max(20),
    review_floor: z.number().min(0).max(74).default(50),
    /** Systems in priority order for `source_priority` survivorship (and the last tie-break). */
    source_priority: z.array(IdentifierSchema).max(50).default([]),
    schedule: CronSchema.nullable().default(null),
  })
  .superRefine((m, ctx) => {
    const names = Object.keys(m.attributes);
    if (names.length === 0) ctx.addIssue({ code: 'custom', path: ['attributes'], message: 'needs an attribute' });
    const known = (attr: string, path: (string | number)[]) => {
      if (!names.includes(attr)) ctx.addIssue({ code: 'custom', path, message: `'${attr}' is not an attribute` });
    };
    m.blocking_rules.forEach((r, i) =>
      r.keys.forEach((k, j) => known(typeof k === 'string' ? k : k.attribute, ['blocking_rules', i, 'keys', j])),
    );
    m.deterministic_rules.forEach((r, i) =>
      r.attributes.forEach((a, j) => known(a, ['deterministic_rules', i, 'attributes', j])),
    );
    for (const [name, spec] of Object.entries(m.attributes)) {
      if ((spec.kind === 'code') !== (spec.domain !== undefined))
        ctx.addIssue({
          code: 'custom',
          path: ['attributes', name, 'domain'],
          message:
            spec.kind === 'code' ? 'a code attribute needs its reference domain' : 'only a code attribute has a domain',
        });
      spec.comparisons.forEach((c, i) => {
        if (c.type === 'date_distance' && spec.kind !== 'date')
          ctx.addIssue({
            code: 'custom',
            path: ['attributes', name, 'comparisons', i],
            message: 'date_distance needs a date attribute',
          });
      });
    }
    const rules = m.blocking_rules.map((r) => r.name);
    rules.forEach((r, i) => {
      if (rules.indexOf(r) !== i)
        ctx.addIssue({ code: 'custom', path: ['blocking_rules', i, 'name'], message: `duplicate rule '${r}'` });
    });
  })
  .meta({ id: 'MdmModel' });
export type MdmModel = z.infer<typeof MdmModelSchema>;
export type MdmModelInput = z.input<typeof MdmModelSchema>;
export type AttributeKind = z.infer<typeof AttributeKindSchema>;
export type ComparisonLevel = z.infer<typeof ComparisonLevelSchema>;

/** PUT body: the model as JSON, or `{yaml}` holding it as YAML. */
export const ModelPutBodySchema = z
  .record(z.string(), z.unknown())
  .meta({ description: 'An MdmModel as JSON, or {"yaml": "<the model as YAML>"}' });

export const EntityTypeParamsSchema = z.object({ entity_type: MdmNameSchema });

export const ModelViewSchema = z.object({
  entity_type: z.string(),
  model: MdmModelSchema,
  created_at: z.string(),
  updated_at: z.string(),
});

export const SourceSchema = z.strictObject({
  system: MdmNameSchema,
  entity_type: MdmNameSchema,
  table_fqn: TableFqnSchema,
  key_column: z.string().min(1).max(255),
  /** attribute → column of the source table. */
  columns: z.record(MdmNameSchema, z.string().min(1).max(255)),
  /** 0–100: most_trusted survivorship prefers higher. */
  trust: z.number().int().min(0).max(100).default(50),
  updated_at_column: z.string().min(1).max(255).nullable().default(null),
});
export type MdmSource = z.infer<typeof SourceSchema>;
export const SourcePatchSchema = SourceSchema.omit({ system: true }).partial().strict();
export const SystemParamsSchema = z.object({ system: MdmNameSchema });
export const SourceViewSchema = SourceSchema.extend({ created_at: z.string(), updated_at: z.string() });
export const SourceListQuerySchema = z.object({ entity_type: MdmNameSchema.optional() });

/** POST /mdm/synthetic: three source tables and a truth table in `<catalog>.<schema>`. */
export const SyntheticBodySchema = z.strictObject({
  catalog: IdentifierSchema,
  schema: IdentifierSchema.default('mdm_synthetic'),
  records: z.number().int().min(30).max(2_000_000).default(10_000),
  systems: z.literal(3).default(3),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(42),
});
export type SyntheticBody = z.infer<typeof SyntheticBodySchema>;

export const RecordRefSchema = z.object({ system: z.string(), record_id: z.string() });
export const SyntheticResultSchema = z.object({
  entity_type: z.string(),
  model: MdmModelSchema,
  sources: z.array(SourceSchema),
  truth_table: z.string(),
  records: z.number(),
  entities: z.number(),
  examples: z.object({
    duplicates: z.array(z.tuple([RecordRefSchema, RecordRefSchema])),
    distinct: z.array(z.tuple([RecordRefSchema, RecordRefSchema])),
  }),
});
export type SyntheticResult = z.infer<typeof SyntheticResultSchema>;
