import { jsonRows, pairRows } from '../../activities/analysis/logic/samples';
import { ident, tableName } from '../../platform/databricks/sql/quote';
import { NotFoundError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { QueryResult, TableRef } from '../../platform/types';
import {
  PreviewRequestSchema,
  PreviewResponseSchema,
  SampleCompareRequestSchema,
  SampleCompareResponseSchema,
  SampleRequestSchema,
  SampleResponseSchema,
} from '../../schemas/analysis';
import { recordQueryRead } from '../../store/analysis/query-log';
import type { AppDeps } from '../deps';
import { fieldNotFound, fieldUnsupported } from '../clone/errors';
import { route } from '../middleware/route';
import { workspaceFor } from './names';
import { CatalogReader } from './reader';

/**
 * Rows are read with `Workspace.query`, the same path as any user query: column masks and row filters apply,
 * so a sample never shows what a query would not. Every read is recorded for the local usage counts.
 */
async function readRows(
  deps: AppDeps,
  ws: Workspace,
  ref: TableRef,
  opts: { limit: number; orderBy: string[]; purpose: string },
): Promise<QueryResult> {
  const order = opts.orderBy.length ? ` ORDER BY ${opts.orderBy.map(ident).join(', ')}` : '';
  const result = await ws.query(`SELECT * FROM ${tableName(ref)}${order} LIMIT ${opts.limit}`);
  await recordQueryRead(deps.store.db, {
    workspace: ws.id,
    catalog: ref.catalog,
    schema: ref.schema,
    table: ref.name,
    columns: result.columns.map((c) => c.name),
    purpose: opts.purpose,
  });
  return { columns: result.columns, rows: jsonRows(result.rows) };
}

/** The table's columns, or a 404 naming `field` when the table does not exist. */
async function columnsOr404(r: CatalogReader, ref: TableRef, field: string) {
  try {
    return await r.columns(ref.catalog, ref.schema, ref.name);
  } catch (err) {
    if (err instanceof NotFoundError)
      throw fieldNotFound(field, `table ${ref.catalog}.${ref.schema}.${ref.name} does not exist`);
    throw err;
  }
}

const ERRORS = {
  404: 'The table does not exist',
  422: 'A name the workspace cannot take, or an unknown order_by column',
};

export const sampleRoutes = [
  route({
    method: 'post',
    path: '/sample',
    summary: 'Up to `limit` rows of a table (masks and row filters apply)',
    role: 'viewer',
    request: { body: SampleRequestSchema },
    response: { description: 'The rows', schema: SampleResponseSchema },
    errors: ERRORS,
    handler: async ({ deps, req, input: { body: b } }) => {
      const ws = await workspaceFor(deps, req, {
        catalog: b.catalog,
        schema_name: b.schema_name,
        table_name: b.table_name,
      });
      const ref = { catalog: b.catalog, schema: b.schema_name, name: b.table_name };
      await columnsOr404(CatalogReader.for(deps, ws), ref, 'table_name');
      const { columns, rows } = await readRows(deps, ws, ref, { limit: b.limit, orderBy: [], purpose: 'sample' });
      return { catalog: b.catalog, schema: b.schema_name, table: b.table_name, columns, rows };
    },
  }),
  route({
    method: 'post',
    path: '/sample/compare',
    summary: 'Source and destination rows side by side, differing cells marked',
    role: 'viewer',
    request: { body: SampleCompareRequestSchema },
    response: { description: 'The rows side by side', schema: SampleCompareResponseSchema },
    errors: ERRORS,
    handler: async ({ deps, req, input: { body: b } }) => {
      const ws = await workspaceFor(deps, req, {
        source_catalog: b.source_catalog,
        destination_catalog: b.destination_catalog,
        schema_name: b.schema_name,
        table_name: b.table_name,
      });
      const r = CatalogReader.for(deps, ws);
      const src = { catalog: b.source_catalog, schema: b.schema_name, name: b.table_name };
      const dst = { ...src, catalog: b.destination_catalog };
      const [sc, dc] = [await columnsOr404(r, src, 'table_name'), await columnsOr404(r, dst, 'destination_catalog')];
      const common = sc.map((c) => c.name).filter((n) => dc.some((d) => d.name.toLowerCase() === n.toLowerCase()));
      let orderBy = common;
      if (b.order_by !== undefined) {
        const col = common.find((c) => c.toLowerCase() === b.order_by!.toLowerCase());
        if (!col) throw fieldUnsupported('order_by', `no column ${b.order_by} on both sides of ${b.table_name}`);
        orderBy = [col];
      }
      const opts = { limit: b.limit, orderBy, purpose: 'sample_compare' };
      const [a, c] = [await readRows(deps, ws, src, opts), await readRows(deps, ws, dst, opts)];
      const { rows, differences } = pairRows(a.rows, c.rows);
      return {
        schema: b.schema_name,
        table: b.table_name,
        order_by: b.order_by ?? null,
        source_rows: a.rows.length,
        dest_rows: c.rows.length,
        differences,
        match: differences === 0,
        rows,
      };
    },
  }),
  route({
    method: 'post',
    path: '/preview',
    summary: 'The first `limit` rows of a table in the source and the destination catalog',
    role: 'viewer',
    request: { body: PreviewRequestSchema },
    response: { description: 'Both sides', schema: PreviewResponseSchema },
    errors: ERRORS,
    handler: async ({ deps, req, input: { body: b } }) => {
      const ws = await workspaceFor(deps, req, {
        source_catalog: b.source_catalog,
        dest_catalog: b.dest_catalog,
        schema: b.schema,
        table: b.table,
      });
      const r = CatalogReader.for(deps, ws);
      const src = { catalog: b.source_catalog, schema: b.schema, name: b.table };
      await columnsOr404(r, src, 'table');
      const side = async (ref: TableRef) => {
        const exists = await ws.tableExists(ref);
        const read = exists
          ? await readRows(deps, ws, ref, { limit: b.limit, orderBy: [], purpose: 'preview' })
          : { columns: [], rows: [] };
        return { catalog: ref.catalog, exists, ...read };
      };
      return {
        schema: b.schema,
        table: b.table,
        limit: b.limit,
        source: await side(src),
        destination: await side({ ...src, catalog: b.dest_catalog }),
      };
    },
  }),
];
