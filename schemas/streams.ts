import { z } from 'zod';
import { IdentifierSchema } from './common';

/** `schema.table`: two identifiers. */
const SchemaTableSchema = z
  .string()
  .superRefine((v, ctx) => {
    const parts = v.split('.');
    if (parts.length !== 2) return void ctx.addIssue({ code: 'custom', message: 'must be schema.table' });
    for (const p of parts) {
      const r = IdentifierSchema.safeParse(p);
      if (!r.success) ctx.addIssue({ code: 'custom', message: `'${p}': ${r.error.issues[0]?.message}` });
    }
  })
  .meta({ example: 'sales.orders' });

export const StreamStartSchema = z
  .object({
    source_catalog: IdentifierSchema,
    destination_catalog: IdentifierSchema,
    tables: z
      .array(SchemaTableSchema)
      .min(1)
      .max(200)
      .refine((t) => new Set(t).size === t.length, 'a table is listed twice'),
    trigger_ms: z.number().int().min(100).max(86_400_000).default(30_000),
  })
  .strict()
  .refine((r) => r.source_catalog !== r.destination_catalog, {
    path: ['destination_catalog'],
    message: 'must differ from source_catalog',
  })
  .meta({ id: 'StreamStart' });

export const StreamIdParamsSchema = z.object({
  stream_id: z.string().regex(/^sync-[0-9a-f]{10}$/, 'a stream id: sync- and 10 hex digits'),
});

export const StreamsQuerySchema = z.object({
  refresh: z.enum(['true', 'false']).default('false'),
});

export const StreamSchema = z
  .object({
    stream_id: z.string(),
    run_id: z.string().nullable(),
    status: z.enum(['starting', 'running', 'stopped', 'failed', 'unknown']),
    source_catalog: z.string(),
    destination_catalog: z.string(),
    tables: z.array(z.string()),
    trigger_ms: z.number(),
    applied_versions: z.record(z.string(), z.number()),
    source_versions: z.record(z.string(), z.number()),
    lag: z.number().meta({ description: 'sum over tables of source version − applied version' }),
    table_lag: z.record(z.string(), z.number()),
    cycles: z.number(),
    last_cycle_at: z.string().nullable(),
    error: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Stream' });

export const StreamStartedSchema = z.object({
  stream_id: z.string(),
  run_id: z.string(),
  status: z.literal('starting'),
});

export type StreamStart = z.infer<typeof StreamStartSchema>;
