import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Every table a query Lakeward ran for a user read (samples, sample comparisons, previews), with the columns
 * it returned: on the local lakehouse, which has no system tables, column and table usage are counted here.
 */
export const analysisQueryLog = pgTable(
  'analysis_query_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The workspace's id (local root or Databricks host). */
    workspace: text('workspace').notNull(),
    catalogName: text('catalog_name').notNull(),
    schemaName: text('schema_name').notNull(),
    tableName: text('table_name').notNull(),
    columns: jsonb('columns').$type<string[]>().notNull(),
    /** What ran it: sample, sample_compare, preview. */
    purpose: text('purpose').notNull(),
    ranAt: tsz('ran_at').notNull().defaultNow(),
  },
  (t) => [index('analysis_query_log_catalog_idx').on(t.workspace, t.catalogName, t.ranAt)],
);
