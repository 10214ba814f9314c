import { lit } from '../../platform/databricks/sql/quote';

/**
 * Databricks system-table reads, as text (tested as text). They run through `Workspace.query`, so a
 * workspace without system tables answers with the platform's own error, which the routes turn into the
 * `fallback` body.
 */
export function tableLineageSql(catalog: string): string {
  const c = lit(catalog.toLowerCase());
  return (
    'SELECT lower(source_table_full_name) AS source, lower(target_table_full_name) AS target, ' +
    'max(event_time) AS last_seen FROM system.access.table_lineage ' +
    `WHERE (lower(source_table_catalog) = ${c} OR lower(target_table_catalog) = ${c}) ` +
    'AND source_table_full_name IS NOT NULL AND target_table_full_name IS NOT NULL ' +
    'GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 10000'
  );
}

function scope(prefix: string, catalog: string, schema?: string): string {
  const parts = [`lower(${prefix}_table_catalog) = ${lit(catalog.toLowerCase())}`];
  if (schema !== undefined) parts.push(`lower(${prefix}_table_schema) = ${lit(schema.toLowerCase())}`);
  return parts.join(' AND ');
}

/** How often each column of the catalog was read, from column lineage (reads by queries and jobs). */
export function columnUsageSql(catalog: string, schema?: string): string {
  return (
    'SELECT lower(source_column_name) AS column_name, ' +
    "lower(concat_ws('.', source_table_schema, source_table_name)) AS table_name, count(*) AS usage_count " +
    `FROM system.access.column_lineage WHERE ${scope('source', catalog, schema)} ` +
    'GROUP BY 1, 2 ORDER BY usage_count DESC, 2, 1 LIMIT 1000'
  );
}

/** Reads per table of the catalog from table lineage events. */
export function tableUsageSql(catalog: string, schema: string | undefined, limit: number): string {
  return (
    "SELECT lower(concat_ws('.', source_table_schema, source_table_name)) AS table_name, " +
    'count(*) AS query_count, max(event_time) AS last_accessed ' +
    `FROM system.access.table_lineage WHERE ${scope('source', catalog, schema)} ` +
    `GROUP BY 1 ORDER BY query_count DESC, 1 LIMIT ${Math.trunc(limit)}`
  );
}
