import { z } from 'zod';
import { IdentifierSchema } from './common';

/** The most rows a sample, sample comparison or preview may ask for (more is a 400 naming `limit`). */
export const MAX_SAMPLE_ROWS = 1000;

const limit = (dflt: number) => z.number().int().min(1).max(MAX_SAMPLE_ROWS).default(dflt);
/** `true`/`false` in a query string (z.coerce.boolean would read "false" as true). */
const queryBool = (dflt: boolean) =>
  z
    .enum(['true', 'false'])
    .default(dflt ? 'true' : 'false')
    .transform((v) => v === 'true');

const Warehouse = { warehouse_id: IdentifierSchema.optional() };

export const CatalogPairSchema = z
  .object({
    source_catalog: IdentifierSchema,
    destination_catalog: IdentifierSchema,
    exclude_schemas: z.array(IdentifierSchema).default([]),
    ...Warehouse,
  })
  .strict();
export type CatalogPair = z.infer<typeof CatalogPairSchema>;

export const ValidateRequestSchema = CatalogPairSchema.extend({ checksum: z.boolean().default(false) }).strict();
export const CompareRequestSchema = ValidateRequestSchema;

export const MonitorQuerySchema = z.object({
  source_catalog: IdentifierSchema,
  destination_catalog: IdentifierSchema,
  warehouse_id: IdentifierSchema.optional(),
  check_drift: queryBool(true),
  check_counts: queryBool(false),
});

export const ObjectDiffSchema = z.object({
  only_in_source: z.array(z.string()),
  only_in_dest: z.array(z.string()),
  in_both: z.number(),
  source_count: z.number(),
  dest_count: z.number(),
});
export type ObjectDiff = z.infer<typeof ObjectDiffSchema>;

export const ColumnChangeSchema = z.object({
  column: z.string(),
  change: z.enum(['added', 'removed', 'type_changed']),
  source_type: z.string().nullable(),
  dest_type: z.string().nullable(),
});
export type ColumnChange = z.infer<typeof ColumnChangeSchema>;

export const SchemaChangeSchema = z.object({ table: z.string(), changes: z.array(ColumnChangeSchema) });
export type SchemaChange = z.infer<typeof SchemaChangeSchema>;

export const DiffResponseSchema = z.object({
  source_catalog: z.string(),
  destination_catalog: z.string(),
  in_sync: z.boolean(),
  schemas: ObjectDiffSchema,
  tables: ObjectDiffSchema,
  views: ObjectDiffSchema,
  functions: ObjectDiffSchema,
  volumes: ObjectDiffSchema,
  /** Tables on both sides whose columns differ ("source" is the source catalog's side). */
  schema_changes: z.array(SchemaChangeSchema),
});
export type DiffResponse = z.infer<typeof DiffResponseSchema>;

export const TableValidationSchema = z.object({
  schema: z.string(),
  table: z.string(),
  source_rows: z.number().nullable(),
  target_rows: z.number().nullable(),
  rows_match: z.boolean(),
  checksum_match: z.boolean().optional(),
  match: z.boolean(),
  error: z.string().optional(),
});

export const ValidateResponseSchema = z.object({
  source_catalog: z.string(),
  destination_catalog: z.string(),
  passed: z.boolean(),
  matched: z.number(),
  mismatched: z.number(),
  errors: z.number(),
  total_tables: z.number(),
  mismatch_pct: z.number(),
  checksum_mismatches: z.number(),
  mismatched_tables: z.array(z.string()),
  tables: z.array(TableValidationSchema),
});

export const PropertyDifferenceSchema = z.object({
  key: z.string(),
  source: z.string().nullable(),
  dest: z.string().nullable(),
});
export type PropertyDifference = z.infer<typeof PropertyDifferenceSchema>;

export const CompareIssueSchema = z.enum([
  'missing_in_destination',
  'schema_drift',
  'row_count_mismatch',
  'checksum_mismatch',
  'properties_mismatch',
  'compare_error',
]);
export type CompareIssue = z.infer<typeof CompareIssueSchema>;

export const TableComparisonSchema = z.object({
  table: z.string(),
  issues: z.array(CompareIssueSchema),
  column_changes: z.array(ColumnChangeSchema),
  property_differences: z.array(PropertyDifferenceSchema),
  source_rows: z.number().nullable(),
  dest_rows: z.number().nullable(),
  checksum_match: z.boolean().nullable(),
  error: z.string().nullable(),
});
export type TableComparison = z.infer<typeof TableComparisonSchema>;

export const CompareResponseSchema = z.object({
  source_catalog: z.string(),
  destination_catalog: z.string(),
  total_tables: z.number(),
  tables_ok: z.number(),
  tables_with_issues: z.number(),
  issue_tables: z.array(z.string()),
  tables: z.array(TableComparisonSchema),
});

export const MonitorTableSchema = z.object({
  table: z.string(),
  verdict: z.enum(['in_sync', 'missing_in_destination', 'extra_in_destination', 'schema_drift', 'count_drift']),
  column_changes: z.array(ColumnChangeSchema),
  source_rows: z.number().nullable(),
  dest_rows: z.number().nullable(),
});
export type MonitorTable = z.infer<typeof MonitorTableSchema>;

export const MonitorResponseSchema = z.object({
  source_catalog: z.string(),
  destination_catalog: z.string(),
  in_sync: z.boolean(),
  checked_at: z.string(),
  check_drift: z.boolean(),
  check_counts: z.boolean(),
  missing_objects: z.number(),
  extra_objects: z.number(),
  schema_drift: z.number(),
  count_drift: z.number(),
  tables: z.array(MonitorTableSchema),
});

// ---- sampling --------------------------------------------------------------------------------------

export const SampleRequestSchema = z
  .object({ catalog: IdentifierSchema, schema_name: IdentifierSchema, table_name: IdentifierSchema, ...Warehouse })
  .extend({ limit: limit(10) })
  .strict();

const RowsSchema = z.array(z.record(z.string(), z.unknown()));
const ColumnsSchema = z.array(z.object({ name: z.string(), type: z.string() }));

export const SampleResponseSchema = z.object({
  catalog: z.string(),
  schema: z.string(),
  table: z.string(),
  columns: ColumnsSchema,
  rows: RowsSchema,
});

export const SampleCompareRequestSchema = z
  .object({
    source_catalog: IdentifierSchema,
    destination_catalog: IdentifierSchema,
    schema_name: IdentifierSchema,
    table_name: IdentifierSchema,
    ...Warehouse,
    limit: limit(5),
    order_by: IdentifierSchema.optional(),
  })
  .strict();

export const RowPairSchema = z.object({
  index: z.number(),
  source: z.record(z.string(), z.unknown()).nullable(),
  dest: z.record(z.string(), z.unknown()).nullable(),
  /** Columns whose values differ on this row (every column when one side has no row). */
  differing_columns: z.array(z.string()),
});
export type RowPair = z.infer<typeof RowPairSchema>;

export const SampleCompareResponseSchema = z.object({
  schema: z.string(),
  table: z.string(),
  order_by: z.string().nullable(),
  source_rows: z.number(),
  dest_rows: z.number(),
  differences: z.number(),
  match: z.boolean(),
  rows: z.array(RowPairSchema),
});

export const PreviewRequestSchema = z
  .object({
    source_catalog: IdentifierSchema,
    dest_catalog: IdentifierSchema,
    schema: IdentifierSchema,
    table: IdentifierSchema,
    limit: limit(50),
    ...Warehouse,
  })
  .strict();

const SideSchema = z.object({
  catalog: z.string(),
  exists: z.boolean(),
  columns: ColumnsSchema,
  rows: RowsSchema,
});
export const PreviewResponseSchema = z.object({
  schema: z.string(),
  table: z.string(),
  limit: z.number(),
  source: SideSchema,
  destination: SideSchema,
});
