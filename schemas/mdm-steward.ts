import { z } from 'zod';

/** Stewardship, reference data, template and report shapes of the MDM API (specification: "MDM resources"). */

export const CaseTypeSchema = z.enum([
  'match_review',
  'conflict_resolution',
  'suspected_duplicate',
  'negative_match_candidate',
  'stewardship_request',
]);

export const RecordRefSchema = z.strictObject({
  system: z.string().min(1).max(255),
  record_id: z.string().min(1).max(255),
});

export const CaseAttributeSchema = z.object({
  attribute: z.string(),
  values: z.array(z.string().nullable()),
  weight: z.number().nullable(),
  level: z.string().nullable().optional(),
});

export const CaseViewSchema = z.object({
  case_id: z.string(),
  entity_type: z.string(),
  type: CaseTypeSchema,
  status: z.enum(['open', 'resolved']),
  records: z.array(RecordRefSchema),
  entity_ids: z.array(z.string()),
  score: z.number().nullable(),
  attributes: z.array(CaseAttributeSchema),
  details: z.record(z.string(), z.unknown()).nullable(),
  run_id: z.string().nullable(),
  assigned_to: z.string().nullable(),
  opened_at: z.string(),
  due_at: z.string(),
  sla_state: z.enum(['on_track', 'at_risk', 'overdue']).nullable().meta({
    description: 'Open cases: on_track, at_risk (70 % of the SLA business time gone) or overdue; null when resolved',
  }),
  resolved_at: z.string().nullable(),
  resolved_by: z.string().nullable(),
  resolution: z.record(z.string(), z.unknown()).nullable(),
});

export const CaseListQuerySchema = z.object({
  entity_type: z.string().optional(),
  type: CaseTypeSchema.optional(),
  status: z.enum(['open', 'resolved']).optional(),
  assigned_to: z.string().optional().meta({ description: "A key name, or `me` for the caller's key name" }),
  sla_state: z.enum(['on_track', 'at_risk', 'overdue']).optional(),
});

export const CaseParamsSchema = z.object({ case_id: z.string().min(1).max(64) });

export const CaseCreateSchema = z.strictObject({
  entity_type: z.string().min(1).max(63),
  type: CaseTypeSchema,
  records: z.array(RecordRefSchema).min(1).max(100),
  entity_ids: z.array(z.string()).max(100).optional(),
  score: z.number().min(0).max(100).nullable().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
  assigned_to: z.string().min(1).max(255).nullable().optional(),
});

export const ResolveActionSchema = z.enum(['approve_match', 'reject', 'override', 'close']);

export const ResolveBodySchema = z.strictObject({
  action: ResolveActionSchema.meta({
    description:
      'approve_match (match_review, suspected_duplicate, negative_match_candidate): merge now and remember a ' +
      'must-link; reject (same types): split now and remember a cannot-link; override (conflict_resolution, ' +
      'match_review, stewardship_request): set attribute_overrides on the golden record; close (stewardship_request)',
  }),
  notes: z.string().max(4000).optional(),
  attribute_overrides: z.record(z.string(), z.string().nullable()).optional(),
  flag_negative_match: z.boolean().optional().meta({ description: 'reject only: also add a pair negative-match rule' }),
});

export const ReassignBodySchema = z.strictObject({ to: z.string().min(1).max(255) });

export const ResolveResultSchema = CaseViewSchema.extend({
  effect: z.object({
    merged_into: z.string().nullable().optional(),
    split_out: z.string().nullable().optional(),
    overrides: z.array(z.string()).optional(),
    negative_match_rule: z.string().nullable().optional(),
    golden_updated: z.boolean(),
    note: z.string().optional(),
  }),
});
