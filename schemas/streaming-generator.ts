import { z } from 'zod';
import { IdentifierSchema } from './common';

/** POST /api/streaming-clone-generator/generate: a Lakeflow (DLT) pipeline keeping a schema's clone up to date. */

export const AdvancedTableSchema = z.union([
  IdentifierSchema,
  z.strictObject({
    name: IdentifierSchema,
    table_type: z.enum(['streaming_table', 'materialized_view']).default('streaming_table'),
    /** materialized_view only: its query (one SELECT). */
    source_sql: z.string().min(1).max(100_000).optional(),
    /** streaming_table: merge keys (default: the table's `id` column). */
    keys: z.array(IdentifierSchema).min(1).max(32).optional(),
  }),
]);

export const StreamingBodySchema = z.strictObject({
  source_catalog: IdentifierSchema,
  destination_catalog: IdentifierSchema,
  schema_name: IdentifierSchema,
  /** Table names (streaming tables) or {name, table_type, source_sql?, keys?}. */
  advanced_tables: z.array(AdvancedTableSchema).min(1).max(500),
  /** Default: schema_name. */
  target_schema: IdentifierSchema.optional(),
  /** Default: `<schema_name>_streaming_clone`. */
  pipeline_name: z.string().trim().min(1).max(256).optional(),
  files_root: z
    .string()
    .regex(/^\/[^\s"'\\]*$/, 'an absolute workspace path')
    .optional(),
});

const FileSchema = z.object({ path: z.string(), content: z.string() });
export const StreamingResultSchema = z.object({
  pipeline: z.object({
    name: z.string(),
    catalog: z.string(),
    schema: z.string(),
    continuous: z.boolean(),
    development: z.boolean(),
    serverless: z.boolean(),
    channel: z.string(),
    libraries: z.array(z.object({ file: z.object({ path: z.string() }) })),
    tags: z.record(z.string(), z.string()),
  }),
  files: z.array(FileSchema),
  python: z.string(),
  materialized_view_sql: z.string(),
  tables: z.array(z.object({ name: z.string(), table_type: z.string(), keys: z.array(z.string()) })),
});
