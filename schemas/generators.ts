import { z } from 'zod';
import { IdentifierSchema } from './common';

/**
 * Seeded demo-data generators: documents, media, knowledge, logs and code repositories written as files into a
 * volume, rows into `demo_<kind>_catalog` (one per file) or `demo_<kind>` (direct table). Shapes written once.
 */

export const GENERATOR_KINDS = ['documents', 'media', 'knowledge', 'logs', 'code'] as const;
export type GeneratorKind = (typeof GENERATOR_KINDS)[number];

export const GENERATOR_TYPES = {
  documents: ['pdf', 'docx', 'pptx', 'xlsx', 'eml'],
  media: ['png', 'wav', 'mp4'],
  knowledge: ['article', 'faq', 'glossary'],
  logs: ['nginx_access', 'app_json', 'syslog', 'otel_trace'],
  code: ['python', 'javascript', 'java'],
} as const satisfies Record<GeneratorKind, readonly string[]>;

/** Items of one type a request may ask for, and what an item is. */
export const GENERATOR_LIMITS: Record<GeneratorKind, { max: number; unit: string; defaultCount: number }> = {
  documents: { max: 10_000, unit: 'documents', defaultCount: 10 },
  media: { max: 5_000, unit: 'media files', defaultCount: 5 },
  knowledge: { max: 10_000, unit: 'documents', defaultCount: 10 },
  logs: { max: 1_000, unit: 'log files', defaultCount: 3 },
  code: { max: 50, unit: 'repositories', defaultCount: 2 },
};

export const LINES_PER_FILE = { min: 1, max: 100_000, default: 1_000 };
export const DAYS_BACK = { min: 1, max: 365, default: 7 };
export const AI_TOKEN_BUDGET = { min: 0, max: 10_000_000, default: 50_000 };

export const DestinationSchema = z.enum(['volume', 'volume_with_catalog', 'direct_table']);
export const IfExistsSchema = z.enum(['replace', 'append', 'fail']);

const AsOfSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'not a calendar date')
  .meta({ description: 'The day the data is generated "as of" (default today, UTC)', example: '2026-01-15' });

function countsSchema(kind: GeneratorKind) {
  const { max, unit } = GENERATOR_LIMITS[kind];
  const count = z
    .number()
    .int()
    .min(1, 'at least 1')
    .max(max, `at most ${max.toLocaleString('en-US')} ${unit} per type (the ${kind} generator's limit)`);
  return z.partialRecord(z.enum(GENERATOR_TYPES[kind]), count).meta({
    description: `Items per type, 1–${max.toLocaleString('en-US')} ${unit} each (default ${GENERATOR_LIMITS[kind].defaultCount})`,
  });
}

/** The body of `POST /api/generate/demo-<kind>` and its preview. */
export function generateBodySchema<K extends GeneratorKind>(kind: K) {
  const base = z.object({
    catalog: IdentifierSchema.meta({ description: 'An existing catalog' }),
    schema: IdentifierSchema.default('demo_unstructured'),
    volume: IdentifierSchema.default('demo_unstructured'),
    destination: DestinationSchema.default('volume_with_catalog'),
    types: z
      .array(z.enum(GENERATOR_TYPES[kind]))
      .min(1)
      .optional()
      .meta({
        description: `Types to generate (default: those named in counts, else all): ${GENERATOR_TYPES[kind].join(', ')}`,
      }),
    counts: countsSchema(kind).optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(42),
    as_of: AsOfSchema.optional(),
    if_exists: IfExistsSchema.default('fail'),
    ai_token_budget: z
      .number()
      .int()
      .min(AI_TOKEN_BUDGET.min, 'at least 0 (0 disables AI)')
      .max(AI_TOKEN_BUDGET.max, 'at most 10,000,000 tokens')
      .default(AI_TOKEN_BUDGET.default),
  });
  if (kind !== 'logs') return base;
  return base.extend({
    lines_per_file: z
      .number()
      .int()
      .min(LINES_PER_FILE.min, 'at least 1 line per file')
      .max(LINES_PER_FILE.max, 'at most 100,000 lines per file (the logs generator limit)')
      .default(LINES_PER_FILE.default),
    days_back: z
      .number()
      .int()
      .min(DAYS_BACK.min, 'at least 1 day')
      .max(DAYS_BACK.max, 'at most 365 days (the logs generator limit)')
      .default(DAYS_BACK.default),
  });
}
export type GenerateBody = z.infer<ReturnType<typeof generateBodySchema>> & {
  lines_per_file?: number;
  days_back?: number;
};

/** What the workflow receives: the request resolved (types, counts per type, as_of). */
export const GenerateInputSchema = z.object({
  jobId: z.string(),
  kind: z.enum(GENERATOR_KINDS),
  catalog: z.string(),
  schema: z.string(),
  volume: z.string(),
  destination: DestinationSchema,
  counts: z.record(z.string(), z.number().int().min(1)),
  seed: z.number().int(),
  asOf: z.string(),
  ifExists: IfExistsSchema,
  aiTokenBudget: z.number().int(),
  /** The job's ai_usage row (GET /api/ai/usage/{id}). */
  aiUsageId: z.string().optional(),
  linesPerFile: z.number().int(),
  daysBack: z.number().int(),
});
export type GenerateInput = z.infer<typeof GenerateInputSchema>;

export const GeneratorTypeInfoSchema = z.object({
  type: z.string(),
  extension: z.string(),
  mime_type: z.string(),
  library: z.string().nullable().meta({ description: 'The optional library the type needs (null: none)' }),
  available: z.boolean(),
  install: z.string().nullable().meta({ description: 'The command that installs the missing library' }),
  max_per_request: z.number(),
});
export const GeneratorTypesSchema = z.object({
  kind: z.enum(GENERATOR_KINDS),
  path: z.string().meta({ description: 'Where files go: /Volumes/<catalog>/<schema>/<volume>/<kind>/<type>/' }),
  catalog_table: z.string(),
  direct_table: z.string(),
  types: z.array(GeneratorTypeInfoSchema),
});

export const GeneratePreviewSchema = z.object({
  kind: z.enum(GENERATOR_KINDS),
  files: z.number(),
  bytes: z.number(),
  seconds: z.number().meta({ description: 'A rough estimate of the run time' }),
  rows: z.number().meta({ description: 'Rows the table receives (none for destination volume)' }),
  table: z.string().nullable(),
  as_of: z.string(),
  per_type: z.record(z.string(), z.object({ count: z.number(), files: z.number(), bytes: z.number() })),
});
export type GeneratePreview = z.infer<typeof GeneratePreviewSchema>;

export const GenerateAcceptedSchema = z.object({ job_id: z.string(), status: z.string(), message: z.string() });
