import { z } from 'zod';

/** Cost recommendations: statuses, the resource, request bodies and the two job types' inputs. */
export const RECOMMENDATION_STATUSES = ['open', 'applying', 'applied', 'dismissed', 'snoozed', 'resolved'] as const;
export const RecommendationStatusSchema = z.enum(RECOMMENDATION_STATUSES);

export const RECOMMENDATION_TYPES = [
  'idle_warehouse',
  'oversized_warehouse',
  'vacuum',
  'small_files',
  'unused_clone',
] as const;

export const RecommendationSchema = z
  .object({
    id: z.string().describe('hash(type, subject): the same finding keeps its id across refreshes'),
    type: z.enum(RECOMMENDATION_TYPES),
    source_analyser: z.string(),
    subject: z.string().describe('warehouse id, or catalog.schema.table'),
    title: z.string(),
    action: z.record(z.string(), z.unknown()),
    evidence: z.array(z.object({ fact: z.string(), value: z.unknown(), source: z.string() })),
    estimated_savings_usd_month: z.number().nullable().describe('null where no saving can be stated honestly'),
    benefit: z.string(),
    confidence: z.enum(['high', 'medium', 'low']),
    effort: z.enum(['auto', 'one-click', 'requires-config-change']),
    status: RecommendationStatusSchema,
    suppressed_until: z.string().nullable(),
    first_seen_at: z.string(),
    last_seen_at: z.string(),
    suggested_by: z.string().nullable(),
    suggested_at: z.string().nullable(),
    apply_job_id: z.string().nullable(),
    applied_by: z.string().nullable(),
    applied_at: z.string().nullable(),
    apply_result: z.record(z.string(), z.unknown()).nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'Recommendation' });
export type RecommendationView = z.infer<typeof RecommendationSchema>;

export const RecommendationListSchema = z
  .object({ recommendations: z.array(RecommendationSchema), total_savings_usd_month: z.number() })
  .meta({ id: 'RecommendationList' });

export const RecommendationListQuerySchema = z.object({
  status: z.union([RecommendationStatusSchema, z.literal('all')]).default('open'),
  type: z.enum(RECOMMENDATION_TYPES).optional(),
});

export const RecommendationIdParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'a recommendation id') });

export const RecommendationApplyBodySchema = z
  .object({
    dry_run: z.boolean().default(false).describe('answer what would run, run nothing'),
    confirm: z.boolean().default(false).describe('required (true) to apply a recommendation that drops a table'),
  })
  .prefault({});

export const RecommendationDismissBodySchema = z
  .object({ days: z.number().int().min(1).max(3650).default(30) })
  .prefault({});
export const RecommendationSnoozeBodySchema = z.object({ days: z.number().int().min(1).max(3650) });
export const RecommendationSuggestBodySchema = z.object({ note: z.string().max(2000).optional() }).prefault({});

export const RecommendationRefreshBodySchema = z
  .object({ wait: z.boolean().default(false).describe('answer when the refresh job ended, with its result') })
  .prefault({});

export const RecommendationPlanSchema = z
  .object({
    id: z.string(),
    dry_run: z.literal(true),
    kind: z.enum(['warehouse_patch', 'vacuum', 'optimize', 'drop']),
    would_run: z.string(),
  })
  .meta({ id: 'RecommendationApplyPlan' });

export const RecommendationJobAcceptedSchema = z.object({
  job_id: z.string(),
  status: z.string(),
  message: z.string(),
  recommendation_id: z.string().optional(),
  result: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const RecommendationRefreshJobInputSchema = z.object({ jobId: z.string().nullable() });
export type RecommendationRefreshJobInput = z.infer<typeof RecommendationRefreshJobInputSchema>;
export const RecommendationApplyJobInputSchema = z.object({ jobId: z.string(), recommendationId: z.string() });
export type RecommendationApplyJobInput = z.infer<typeof RecommendationApplyJobInputSchema>;
