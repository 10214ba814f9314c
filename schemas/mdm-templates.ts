import { z } from 'zod';
import {
  AttributeSpecSchema,
  BlockingRuleSchema,
  DeterministicRuleSchema,
  MdmNameSchema,
  SurvivorshipSchema,
} from './mdm';

/** Industry templates (config/mdm/templates/*.yaml): every component the specification lists. */

const CodeSchema = z.strictObject({
  code: z.string().min(1).max(64),
  description: z.string().max(1000).optional(),
  aliases: z.array(z.string().min(1).max(200)).default([]),
  parent: z.string().max(64).optional(),
});

const DomainSchema = z.strictObject({
  domain: z.string().regex(/^[a-z][a-z0-9_]{0,62}$/),
  description: z.string().max(1000).optional(),
  codes: z.array(CodeSchema).min(1),
});

export const TemplateSchema = z.strictObject({
  name: MdmNameSchema,
  title: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  /** Entity types and their attributes. */
  entities: z.record(
    MdmNameSchema,
    z.strictObject({ description: z.string().optional(), attributes: z.record(MdmNameSchema, AttributeSpecSchema) }),
  ),
  /** Per entity type: deterministic rules, blocking rules and the review floor. */
  match_rules: z.record(
    MdmNameSchema,
    z.strictObject({
      deterministic_rules: z.array(DeterministicRuleSchema).default([]),
      blocking_rules: z.array(BlockingRuleSchema).min(1),
      review_floor: z.number().min(0).max(74).default(50),
    }),
  ),
  /** Per entity type: survivorship per attribute and the source priority. */
  merge_strategies: z.record(
    MdmNameSchema,
    z.strictObject({
      source_priority: z.array(z.string()).default([]),
      attributes: z.record(MdmNameSchema, SurvivorshipSchema).default({}),
    }),
  ),
  reference_data: z.array(DomainSchema).default([]),
  /** Reference-data domains whose codes form a tree (parent codes). */
  hierarchies: z.array(DomainSchema).default([]),
  /** DQX checks on each entity type's source_records table. */
  dq_rules: z.record(
    MdmNameSchema,
    z.array(
      z.strictObject({
        name: z.string().min(1).max(255),
        check_function: z.string().min(1).max(100),
        arguments: z.record(z.string(), z.unknown()).default({}),
        criticality: z.enum(['error', 'warn']).default('error'),
      }),
    ),
  ),
});
export type Template = z.infer<typeof TemplateSchema>;

export const TemplateComponentSchema = z.enum(['entities', 'match_rules', 'reference_data', 'dq_rules']);

export const TemplateParamsSchema = z.object({ name: z.string().min(1).max(63) });

export const TemplateApplyBodySchema = z.strictObject({
  target_catalog: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,254}$/, 'must be a catalog name')
    .optional()
    .meta({ description: 'Where the source_records tables go (default mdm.catalog)' }),
  components: z
    .array(TemplateComponentSchema)
    .min(1)
    .optional()
    .meta({
      description:
        'Default all. entities or match_rules write the models (a model needs both, and its merge strategies) and ' +
        'the source_records tables; reference_data writes reference data and hierarchies; dq_rules writes DQX checks',
    }),
});

export const TemplateSummarySchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  entities: z.array(z.string()),
  reference_domains: z.array(z.string()),
  dq_rule_count: z.number(),
});

const Outcome = z.enum(['created', 'updated', 'unchanged']);
export const TemplateApplyResultSchema = z.object({
  template: z.string(),
  target_catalog: z.string(),
  changed: z.boolean().meta({ description: 'False when the apply changed nothing (a second apply)' }),
  entities: z.array(z.object({ entity_type: z.string(), model: Outcome, table: Outcome, table_fqn: z.string() })),
  reference_data: z.array(
    z.object({ domain: z.string(), created: z.number(), updated: z.number(), unchanged: z.number() }),
  ),
  dq_rules: z.array(z.object({ table_fqn: z.string(), created: z.number(), unchanged: z.number() })),
});
