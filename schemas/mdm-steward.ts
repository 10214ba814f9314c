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

const IsoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a yyyy-MM-dd date');

export const RefDomainParamsSchema = z.object({
  domain: z.string().regex(/^[a-z][a-z0-9_]{0,62}$/, 'must be lower-case letters, digits and _ (max 63)'),
});
export const RefCodeParamsSchema = RefDomainParamsSchema.extend({ code: z.string().min(1).max(64) });

export const RefCodeBodySchema = z.strictObject({
  code: z.string().trim().min(1).max(64),
  description: z.string().max(1000).nullable().optional(),
  aliases: z.array(z.string().trim().min(1).max(200)).max(200).optional(),
  parent: z.string().max(64).nullable().optional(),
  valid_from: IsoDay.nullable().optional(),
  valid_to: IsoDay.nullable().optional(),
});
export const RefCodePatchSchema = RefCodeBodySchema.omit({ code: true });

export const RefCodeViewSchema = z.object({
  code: z.string(),
  description: z.string().nullable(),
  aliases: z.array(z.string()),
  parent: z.string().nullable(),
  valid_from: z.string().nullable(),
  valid_to: z.string().nullable(),
  valid_now: z.boolean(),
});

export const RefDomainSummarySchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  builtin: z.boolean(),
  code_count: z.number(),
});

export const RefDomainViewSchema = RefDomainSummarySchema.extend({ codes: z.array(RefCodeViewSchema) });

export const RefImportBodySchema = z.object({
  csv: z.string().optional().meta({ description: 'The CSV as a JSON string (or send the file as text/csv)' }),
});

export const RefImportResultSchema = z.object({
  domain: z.string(),
  created: z.number(),
  updated: z.number(),
  failed: z.number(),
  lines: z.array(
    z.object({
      line: z.number(),
      code: z.string().nullable(),
      status: z.enum(['created', 'updated', 'conflict', 'invalid']),
      message: z.string().optional(),
    }),
  ),
  mapping_table: z.string(),
});

export const RefResolveQuerySchema = z.object({
  value: z.string().min(1).max(500),
  as_of: IsoDay.optional(),
});

export const RefResolveResultSchema = z.object({
  domain: z.string(),
  value: z.string(),
  normalised: z.string(),
  code: z.string().nullable(),
  valid: z.boolean().meta({ description: 'The code is valid on as_of (default today)' }),
});

export const EntityOverrideParamsSchema = z.object({ entity_id: z.string().min(1).max(64) });
export const EntityOverrideBodySchema = z.strictObject({
  attributes: z
    .record(z.string().regex(/^[a-z][a-z0-9_]{0,62}$/), z.string().max(4000).nullable())
    .refine((a) => Object.keys(a).length > 0, 'give at least one attribute'),
});
export const EntityOverrideResultSchema = z.object({
  entity_id: z.string(),
  entity_type: z.string(),
  attributes: z.array(z.string()),
});
