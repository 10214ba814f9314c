import { z } from 'zod';
import { TableFqnSchema } from './data-quality';

/** Format conversion (`POST /api/convert-to-delta`), the specification's "Convert" section, written once. */

export const ConvertFormatSchema = z.enum(['DELTA', 'ICEBERG', 'PARQUET', 'HUDI']);
export type ConvertFormat = z.infer<typeof ConvertFormatSchema>;

export const StrategySchema = z.enum(['convert_to_delta', 'uniform', 'ctas_iceberg', 'ctas_parquet']);
export type Strategy = z.infer<typeof StrategySchema>;

const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v);

export const ConvertTargetSchema = z.object({
  fqn: TableFqnSchema,
  source_format: z.preprocess(upper, ConvertFormatSchema),
  target_format: z.preprocess(upper, ConvertFormatSchema).default('DELTA'),
});
export type ConvertTarget = z.infer<typeof ConvertTargetSchema>;

export const ConvertBodySchema = z
  .object({
    targets: z.array(ConvertTargetSchema).min(1).max(1000),
    warehouse_id: z.string().min(1).max(255).optional(),
    confirm_destructive: z.boolean().optional(),
    iceberg_physical: z.boolean().default(false),
    keep_backup: z.boolean().default(true),
    dry_run: z.boolean().default(false),
  })
  .superRefine((b, ctx) => {
    if (!b.dry_run && b.confirm_destructive !== true)
      ctx.addIssue({
        code: 'custom',
        path: ['confirm_destructive'],
        message:
          'must be true to convert (conversion rewrites or replaces tables); or set dry_run: true to see the plan',
      });
  });
export type ConvertBody = z.infer<typeof ConvertBodySchema>;

export const ConvertStepSchema = z.object({
  label: z.string(),
  statement: z.string(),
  status: z.enum(['planned', 'done', 'failed', 'skipped']),
  error: z.string().nullable(),
});

export const ConvertResultSchema = z
  .object({
    fqn: z.string(),
    source_format: ConvertFormatSchema,
    destination_format: ConvertFormatSchema,
    strategy_used: StrategySchema.nullable(),
    status: z.enum(['converted', 'failed', 'skipped']),
    duration_ms: z.number().int(),
    error: z.string().nullable(),
    backup_fqn: z.string().nullable(),
    steps: z.array(ConvertStepSchema),
    warnings: z.array(z.string()),
  })
  .meta({ id: 'ConvertResult' });
export type ConvertResult = z.infer<typeof ConvertResultSchema>;

export const ConvertBatchSchema = z
  .object({
    operation_id: z.string(),
    dry_run: z.boolean(),
    total: z.number(),
    converted: z.number(),
    failed: z.number(),
    skipped: z.number(),
    results: z.array(ConvertResultSchema),
  })
  .meta({ id: 'ConvertBatch' });
export type ConvertBatch = z.infer<typeof ConvertBatchSchema>;
