import { z } from 'zod';
import { paginationQuery, PrintableTextSchema } from './common';
import { CriticalityInputSchema, TableFqnSchema } from './data-quality';

/** Data-quality profiling shapes: table profiles, generated checks, profile drift and YAML import/export. */

export const HistogramBinSchema = z.object({ range_min: z.number(), range_max: z.number(), count: z.number() });
export const ColumnProfileSchema = z
  .object({
    name: z.string(),
    type: z.string(),
    count: z.number(),
    nulls: z.number(),
    distinct: z.number(),
    min: z.union([z.number(), z.string()]).nullable(),
    max: z.union([z.number(), z.string()]).nullable(),
    mean: z.number().nullable(),
    stddev: z.number().nullable(),
    min_length: z.number().nullable(),
    max_length: z.number().nullable(),
    avg_length: z.number().nullable(),
    empty: z.number().optional(),
    null_pct: z.number(),
    distinct_pct: z.number(),
    histogram: z.object({ bins: z.array(HistogramBinSchema) }),
    top_values: z.array(z.object({ value: z.unknown(), count: z.number(), pct: z.number() })),
  })
  .meta({ id: 'DqxColumnProfile' });
export const ProfileSchema = z
  .object({
    profile_id: z.string().optional(),
    table_fqn: z.string(),
    row_count: z.number(),
    columns: z.array(ColumnProfileSchema),
    profiled_at: z.string().optional(),
    execution_time_ms: z.number().optional(),
  })
  .meta({ id: 'DqxProfile' });

/** How a table is profiled: rows (0 = all), top values per column, histogram bins, which columns. */
export const ProfileOptionsSchema = z.object({
  sample_limit: z.number().int().min(0).max(100_000_000).default(0),
  top_n: z.number().int().min(1).max(100).default(10),
  histogram_bins: z.number().int().min(2).max(100).default(20),
  columns: z.array(z.string().min(1).max(255)).max(1000).optional(),
});
export type ProfileOptions = z.infer<typeof ProfileOptionsSchema>;

export const ProfileBodySchema = z.object({
  table_fqn: TableFqnSchema,
  options: ProfileOptionsSchema.default(ProfileOptionsSchema.parse({})),
});
/** The workbench's shape: the options at the top level. */
export const ProfileTableBodySchema = ProfileOptionsSchema.extend({ table_fqn: TableFqnSchema });
export const ProfileResultsBodySchema = ProfileOptionsSchema.extend({
  /** One read-only SELECT (or WITH … SELECT) over catalog.schema.table names. */
  sql: PrintableTextSchema.pipe(z.string().min(1).max(100_000)),
});
export const ProfileListQuerySchema = paginationQuery(50).extend({ table_fqn: TableFqnSchema.optional() });

/** DQ profile workflow input: a table, or a read-only query (profile-results), with the options. */
export const DqProfileInputSchema = z.object({
  profileId: z.string(),
  tableFqn: z.string().optional(),
  sql: z.string().optional(),
  options: ProfileOptionsSchema,
  profiledBy: z.string(),
  store: z.boolean(),
});
export type DqProfileInput = z.infer<typeof DqProfileInputSchema>;

export const GenerateBodySchema = z.object({
  table_fqn: TableFqnSchema,
  /** Profile the table first (default: use the latest stored profile, profiling only when there is none). */
  refresh_profile: z.boolean().default(false),
  criticality: CriticalityInputSchema.default('error'),
  /** DQX generator thresholds (defaults: max_in_count 10, distinct_ratio 0.05, max_null_ratio 0.01, max_empty_ratio 0.01). */
  options: z
    .object({
      max_in_count: z.number().int().min(1).max(1000).optional(),
      distinct_ratio: z.number().min(0).max(1).optional(),
      max_null_ratio: z.number().min(0).max(1).optional(),
      max_empty_ratio: z.number().min(0).max(1).optional(),
    })
    .default({}),
});
export const DriftBodySchema = z.object({ table_fqn: TableFqnSchema });

export const ExportQuerySchema = z.object({ table_fqn: TableFqnSchema.optional() });
export const ImportBodySchema = z.object({
  /** Checks without their own table_fqn in the YAML are attached to this table. */
  table_fqn: TableFqnSchema.optional(),
  yaml_content: z.string().min(1).max(5_000_000),
});
export const SaveToDeltaBodySchema = z.object({
  /** Default: `<audit catalog>.governance.dqx_checks`. */
  target_table: TableFqnSchema.optional(),
  table_fqn: TableFqnSchema.optional(),
});
