import { z } from 'zod';
import { MdmNameSchema, RecordRefSchema } from './mdm';

/**
 * Negative-match rules (records that must never share a golden record) and the steward's status moves of a
 * golden record. Field names follow the specification's "MDM resources".
 */

const RuleRecordSchema = z.strictObject({
  system: z.string().min(1).max(255),
  record_id: z.string().min(1).max(255),
});

export const NegativeMatchTypeSchema = z.enum(['pair', 'group', 'pattern']);

export const NegativeMatchBodySchema = z
  .strictObject({
    entity_type: MdmNameSchema,
    type: NegativeMatchTypeSchema,
    /** Pair and group: golden records (each keeps apart the records it holds now) … */
    entity_ids: z.array(z.string().min(1).max(100)).min(2).max(100).optional(),
    /** … or source records. */
    records: z.array(RuleRecordSchema).min(2).max(100).optional(),
    /** Pattern: a predicate over a.<attribute> and b.<attribute>, e.g. `a.first_name <> b.first_name`. */
    predicate: z.string().min(1).max(2000).optional(),
    reason: z.string().trim().min(1).max(2000),
  })
  .meta({ id: 'NegativeMatchRuleCreate' });
export type NegativeMatchBody = z.infer<typeof NegativeMatchBodySchema>;

export const NegativeMatchPatchSchema = z.strictObject({ status: z.enum(['active', 'inactive']) });
export const NegativeMatchIdParamsSchema = z.object({ id: z.string().min(1).max(100) });
export const NegativeMatchQuerySchema = z.object({
  entity_type: MdmNameSchema.optional(),
  status: z.enum(['active', 'inactive']).optional(),
});

export const NegativeMatchRuleSchema = z
  .object({
    id: z.string(),
    entity_type: z.string(),
    type: NegativeMatchTypeSchema,
    entity_ids: z.array(z.string()).nullable(),
    records: z.array(RecordRefSchema).nullable(),
    /** Each member's source records (an entity id's records as they were when the rule was made). */
    members: z.array(z.object({ entity_id: z.string().nullable(), records: z.array(RecordRefSchema) })),
    predicate: z.string().nullable(),
    reason: z.string(),
    status: z.enum(['active', 'inactive']),
    created_by: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    /** Merges the rule prevented, direct or transitive: per match run, the clusters it kept apart. */
    blocked_attempts: z.number().int(),
  })
  .meta({ id: 'NegativeMatchRule' });
export type NegativeMatchRule = z.infer<typeof NegativeMatchRuleSchema>;

export const NegativeMatchCreatedSchema = NegativeMatchRuleSchema.extend({
  /** Golden records holding records the new rule keeps apart: now under_review; the next run splits them. */
  under_review: z.array(z.string()),
});

/** Moves a golden record may make by hand: active ↔ under_review, either → archived; anything else is a 409. */
export const GOLDEN_TRANSITIONS: Record<string, string[]> = {
  active: ['under_review', 'archived'],
  under_review: ['active', 'archived'],
};
export const EntityPatchSchema = z.strictObject({ status: z.enum(['active', 'under_review', 'archived']) });
