import { z } from 'zod';
import { TableFqnSchema } from './data-quality';

/** `GET /api/tables/{full_name}`: one table's columns, details and history, and where to read more about it. */
export const TableParamsSchema = z.object({ full_name: TableFqnSchema });

export const TableQuerySchema = z.object({
  history_limit: z.coerce
    .number()
    .int()
    .min(0)
    .max(1000)
    .default(20)
    .meta({ description: 'newest history entries to return (0: none)' }),
});

export const TableColumnSchema = z
  .object({
    name: z.string(),
    type: z.string().meta({ description: 'platform type text, lower case (bigint, decimal(10,2), array<string>)' }),
    nullable: z.boolean(),
    comment: z.string().nullable(),
    position: z.number().int().meta({ description: '1-based' }),
    partition: z.boolean().meta({ description: 'a partition column' }),
  })
  .meta({ id: 'TableColumn' });

export const TableHistoryEntrySchema = z
  .object({
    version: z.number().int(),
    timestamp: z.string().meta({ description: 'ISO 8601' }),
    operation: z.string(),
    operation_parameters: z.record(z.string(), z.string()),
    operation_metrics: z.record(z.string(), z.string()),
    user_name: z.string().nullable(),
  })
  .meta({ id: 'TableHistoryEntry' });

const LinkSchema = z.object({
  method: z.enum(['GET', 'POST']),
  path: z.string().meta({ description: 'API path, with the query string when it takes one' }),
  body: z.object({ table: z.string() }).optional().meta({ description: 'the JSON body of a POST' }),
});

export const TableDetailsSchema = z
  .object({
    full_name: z.string(),
    catalog: z.string(),
    schema: z.string(),
    name: z.string(),
    table_type: z.string().meta({ description: 'MANAGED, EXTERNAL, VIEW …' }),
    format: z.string().nullable(),
    owner: z.string().nullable(),
    comment: z.string().nullable(),
    location: z.string().nullable(),
    created_at: z.string().nullable(),
    last_altered: z.string().nullable(),
    version: z.number().int().nullable().meta({ description: 'current Delta version; null for other formats' }),
    size_bytes: z.number().nullable(),
    num_files: z.number().int().nullable(),
    partition_columns: z.array(z.string()),
    properties: z.record(z.string(), z.string()),
    columns: z.array(TableColumnSchema),
    history: z.array(TableHistoryEntrySchema).meta({ description: 'newest first (empty for views and non-Delta)' }),
    links: z
      .object({
        lineage: LinkSchema,
        quality: LinkSchema.extend({ checks: z.number().int(), enabled_checks: z.number().int() }).nullable(),
        contracts: z
          .array(LinkSchema.extend({ name: z.string() }))
          .meta({ description: 'data contracts attached to the table' }),
      })
      .meta({ description: 'API calls holding more about this table; quality is null without checks' }),
  })
  .meta({ id: 'TableDetails' });

export type TableDetails = z.infer<typeof TableDetailsSchema>;
