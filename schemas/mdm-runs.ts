import { z } from 'zod';
import { TableFqnSchema } from './data-quality';
import { MdmModelSchema, MdmNameSchema, RecordRefSchema, SourceSchema } from './mdm';

/**
 * Master data management runs: the ingest and match jobs (bodies, inputs, results), blocking analysis, evaluation
 * and golden records as the API shows them. Field names follow the specification's "MDM resources".
 */

export const IngestBodySchema = z.strictObject({
  entity_type: MdmNameSchema,
  systems: z.array(MdmNameSchema).min(1).max(100).optional(),
});

/** Input of the `mdm_ingest` job: the model and sources as they were when it was queued. */
export const MdmIngestInputSchema = z.object({
  jobId: z.string(),
  entityType: z.string(),
  catalog: z.string(),
  model: MdmModelSchema,
  sources: z.array(SourceSchema),
});
export type MdmIngestInput = z.infer<typeof MdmIngestInputSchema>;

export const IngestSourceSummarySchema = z.object({
  system: z.string(),
  rows_read: z.number(),
  rows_written: z.number(),
  skipped: z.record(z.string(), z.number()),
  duplicate_keys: z.number(),
  /** Values of code attributes that are no alias of their domain on the ingest day (written as NULL). */
  unknown_codes: z.number().optional(),
  changed: z.number(),
  vanished: z.number(),
});
export type IngestSourceSummary = z.infer<typeof IngestSourceSummarySchema>;

export const JobAcceptedSchema = z.object({
  job_id: z.string(),
  status: z.string(),
  message: z.string(),
  queue_position: z.number(),
});

export const MdmRunViewSchema = z.object({
  job_id: z.string(),
  kind: z.string(),
  entity_type: z.string(),
  status: z.string(),
  error: z.string().nullable(),
  summary: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export const JobIdParamsSchema = z.object({ job_id: z.string().min(1).max(100) });

export const MatchRunBodySchema = z.strictObject({
  entity_type: MdmNameSchema,
  /**
   * `full`: every live record compared afresh; `incremental`: only new or changed records against everything,
   * scored with the model the last run trained. Default: incremental once a run of the entity type completed.
   */
  mode: z.enum(['full', 'incremental']).optional(),
  /** Full runs: train λ, m and u afresh (default), or score with the last run's model (false). */
  retrain: z.boolean().default(true),
  /** Seed of the record sample u is estimated from. */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(42),
});

/** Input of the `mdm_match` job. */
export const MdmMatchInputSchema = z.object({
  jobId: z.string(),
  entityType: z.string(),
  catalog: z.string(),
  model: MdmModelSchema,
  mode: z.enum(['full', 'incremental']),
  /** The model the last completed run trained: incremental runs (and full ones without retrain) score with it. */
  previousParams: z
    .object({ lambda: z.number(), m: z.array(z.array(z.number())), u: z.array(z.array(z.number())) })
    .nullable()
    .default(null),
  maxPairs: z.number(),
  seed: z.number(),
  sampleSize: z.number(),
  /** The holiday calendar the SLA of the cases a run opens skips (mdm.sla_calendar). */
  slaCalendar: z.string().nullable().default(null),
});
export type MdmMatchInput = z.infer<typeof MdmMatchInputSchema>;

export const BlockingAnalyseBodySchema = z.strictObject({ entity_type: MdmNameSchema });
export const BlockingAnalysisSchema = z.object({
  entity_type: z.string(),
  records: z.number(),
  rules: z.array(z.object({ rule: z.string(), pairs: z.number() })),
  total_pairs: z.number(),
  max_candidate_pairs: z.number(),
  over_limit: z.boolean(),
});

export const MatchRunViewSchema = z.object({
  job_id: z.string(),
  status: z.string(),
  error: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  report: z.record(z.string(), z.unknown()).nullable(),
});

export const EvaluateBodySchema = z.strictObject({ entity_type: MdmNameSchema, truth_table: TableFqnSchema });
export const EvaluationSchema = z.object({
  entity_type: z.string(),
  truth_table: z.string(),
  records: z.number(),
  pairwise: z.object({
    precision: z.number(),
    recall: z.number(),
    f1: z.number(),
    true_pairs: z.number(),
    predicted_pairs: z.number(),
    correct_pairs: z.number(),
  }),
  b_cubed: z.object({ precision: z.number(), recall: z.number(), f1: z.number() }),
});

export const EntityQuerySchema = z.object({
  entity_type: MdmNameSchema.optional(),
  status: z.enum(['active', 'under_review', 'merged_into_other', 'archived']).optional(),
  system: z.string().min(1).max(255).optional(),
  record_id: z.string().min(1).max(255).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export const EntityIdParamsSchema = z.object({ entity_id: z.string().min(1).max(100) });
export const GoldenRecordSchema = z
  .object({
    entity_id: z.string(),
    entity_type: z.string(),
    status: z.string(),
    reviewable: z.boolean(),
    confidence_score: z.number(),
    attributes: z.record(z.string(), z.string().nullable()),
    provenance: z.record(z.string(), z.object({ system: z.string(), record_id: z.string() }).nullable()),
    source_records: z.array(RecordRefSchema),
    merged_into: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'GoldenRecord' });
export type GoldenRecord = z.infer<typeof GoldenRecordSchema>;
