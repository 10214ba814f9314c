import {
  CatalogListSchema,
  CatalogParamsSchema,
  ColumnUsageRequestSchema,
  ColumnUsageResponseSchema,
  SchemaListSchema,
  SchemaParamsSchema,
  TableListSchema,
  TableUsageRequestSchema,
  TableUsageResponseSchema,
} from '../../schemas/analysis-lineage';
import { columnReads, tableReads } from '../../store/analysis/query-log';
import { route } from '../middleware/route';
import { workspaceFor } from './names';
import { CatalogReader } from './reader';
import { columnUsageSql, tableUsageSql } from './system-sql';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const iso = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));

/**
 * Rows from the workspace's system tables when asked (`use_system_tables`); when they cannot be read (the local
 * lakehouse has none; a Databricks workspace may not have them enabled) the answer is still 200, from the
 * queries Lakeward itself ran, with `fallback: true` and the platform's error text.
 */
async function fromSystemTables<T>(wanted: boolean, read: () => Promise<T>) {
  if (!wanted) return { rows: null, source: 'lakeward_query_log' as const, fallback: false, error: null };
  try {
    return { rows: await read(), source: 'system_tables' as const, fallback: false, error: null };
  } catch (err) {
    return {
      rows: null,
      source: 'lakeward_query_log' as const,
      fallback: true,
      error: `system tables unavailable: ${message(err)}`,
    };
  }
}

export const usageRoutes = [
  route({
    method: 'post',
    path: '/column-usage',
    summary: 'How often each column was read: system tables, or the queries Lakeward ran (fallback)',
    role: 'viewer',
    request: { body: ColumnUsageRequestSchema },
    response: { description: 'Column usage', schema: ColumnUsageResponseSchema },
    errors: { 422: 'A name the workspace cannot take' },
    handler: async ({ deps, req, input: { body: b } }) => {
      const ws = await workspaceFor(deps, req, { catalog: b.catalog, schema_name: b.schema_name });
      const sys = await fromSystemTables(b.use_system_tables || b.include_query_history, async () =>
        (await ws.query(columnUsageSql(b.catalog, b.schema_name))).rows.map((r) => ({
          column: String(r.column_name),
          table: String(r.table_name),
          usage_count: Number(r.usage_count),
        })),
      );
      let columns = sys.rows;
      if (columns === null) {
        const counts = new Map<string, { column: string; table: string; usage_count: number }>();
        for (const read of await columnReads(deps.store.db, ws.id, b.catalog, b.schema_name))
          for (const column of read.columns) {
            const table = `${read.schema}.${read.table}`;
            const k = `${table}\u0000${column}`;
            const c = counts.get(k) ?? { column, table, usage_count: 0 };
            c.usage_count++;
            counts.set(k, c);
          }
        columns = [...counts.values()].sort(
          (x, y) => y.usage_count - x.usage_count || x.table.localeCompare(y.table) || x.column.localeCompare(y.column),
        );
      }
      return { catalog: b.catalog, columns, source: sys.source, fallback: sys.fallback, error: sys.error };
    },
  }),
  route({
    method: 'post',
    path: '/table-usage',
    summary: 'Reads per table, most read first: system tables, or the queries Lakeward ran (fallback)',
    role: 'viewer',
    request: { body: TableUsageRequestSchema },
    response: { description: 'Table usage', schema: TableUsageResponseSchema },
    errors: { 422: 'A name the workspace cannot take' },
    handler: async ({ deps, req, input: { body: b } }) => {
      const ws = await workspaceFor(deps, req, { catalog: b.catalog, schema_name: b.schema_name });
      const sys = await fromSystemTables(b.use_system_tables, async () =>
        (await ws.query(tableUsageSql(b.catalog, b.schema_name, b.limit))).rows.map((r) => ({
          table: String(r.table_name),
          query_count: Number(r.query_count),
          last_accessed: iso(r.last_accessed),
        })),
      );
      const tables =
        sys.rows ??
        (await tableReads(deps.store.db, ws.id, b.catalog, b.schema_name, b.limit)).map((r) => ({
          table: `${r.schema}.${r.table}`,
          query_count: Number(r.reads),
          last_accessed: iso(r.last),
        }));
      return { catalog: b.catalog, tables, source: sys.source, fallback: sys.fallback, error: sys.error };
    },
  }),
  route({
    method: 'get',
    path: '/catalogs',
    summary: 'Catalogs of the workspace (for pickers; cached)',
    response: { description: 'Catalogs', schema: CatalogListSchema },
    handler: async ({ deps, req }) => {
      const r = CatalogReader.for(deps, await deps.workspaces.resolve(req));
      return {
        catalogs: (await r.catalogs()).map((c) => ({ name: c.name, comment: c.comment, owner: c.owner })),
      };
    },
  }),
  route({
    method: 'get',
    path: '/catalogs/:catalog/schemas',
    summary: 'Schemas of a catalog (for pickers; cached)',
    request: { params: CatalogParamsSchema },
    response: { description: 'Schemas', schema: SchemaListSchema },
    errors: { 404: 'The catalog does not exist' },
    handler: async ({ deps, req, input: { params: p } }) => {
      const r = CatalogReader.for(deps, await deps.workspaces.resolve(req));
      await r.hasCatalog(p.catalog, 'catalog');
      const schemas = (await r.schemas(p.catalog)).map((s) => ({ name: s.name, comment: s.comment, owner: s.owner }));
      return { catalog: p.catalog, schemas };
    },
  }),
  route({
    method: 'get',
    path: '/catalogs/:catalog/schemas/:schema/tables',
    summary: 'Tables and views of a schema (for pickers; cached)',
    request: { params: SchemaParamsSchema },
    response: { description: 'Tables', schema: TableListSchema },
    errors: { 404: 'The catalog does not exist' },
    handler: async ({ deps, req, input: { params: p } }) => {
      const r = CatalogReader.for(deps, await deps.workspaces.resolve(req));
      await r.hasCatalog(p.catalog, 'catalog');
      const [tables, views] = await Promise.all([r.tables(p.catalog, p.schema), r.views(p.catalog, p.schema)]);
      return {
        catalog: p.catalog,
        schema: p.schema,
        tables: [
          ...tables.map((t) => ({ name: t.name, type: t.tableType, comment: t.comment })),
          ...views.map((v) => ({ name: v.name, type: 'VIEW', comment: v.comment })),
        ].sort((a, b) => a.name.localeCompare(b.name)),
      };
    },
  }),
];
