import { netChanges } from '../../merge-changes';
import type { ChangeRow, CreateTableOptions, MergeMetrics, TableRef, VolumeFile } from '../../types';
import * as ddl from '../sql/ddl';
import * as dml from '../sql/dml';
import { copyIntoJsonSql } from '../sql/copy-into';
import { createTableAsSql } from '../sql/delta-ops';
import { checkRef, columnName, ucName } from '../sql/names';
import { firstRow, run, type OpsContext } from './context';
import { num } from './mappers';

/** Containers, objects, volume files and row-level writes. */
export async function createCatalog(ctx: OpsContext, o: Parameters<typeof ddl.createCatalogSql>[0]): Promise<void> {
  ucName(o.name, 'catalog name');
  await run(ctx, ddl.createCatalogSql(o));
}

export async function dropCatalog(ctx: OpsContext, name: string, o?: { cascade?: boolean; ifExists?: boolean }) {
  await run(ctx, ddl.dropCatalogSql(ucName(name, 'catalog name'), o));
}

export async function createSchema(ctx: OpsContext, o: Parameters<typeof ddl.createSchemaSql>[0]): Promise<void> {
  ucName(o.catalog, 'catalog name');
  ucName(o.name, 'schema name');
  await run(ctx, ddl.createSchemaSql(o));
}

export async function dropSchema(
  ctx: OpsContext,
  catalog: string,
  schema: string,
  o?: { cascade?: boolean; ifExists?: boolean },
) {
  await run(ctx, ddl.dropSchemaSql(ucName(catalog, 'catalog name'), ucName(schema, 'schema name'), o));
}

export async function createView(ctx: OpsContext, o: Parameters<typeof ddl.createViewSql>[0]): Promise<void> {
  checkRef(o.ref, 'view');
  await run(ctx, ddl.createViewSql(o));
}

export async function createFunction(ctx: OpsContext, o: Parameters<typeof ddl.createFunctionSql>[0]): Promise<void> {
  checkRef(o.ref, 'function');
  await run(ctx, ddl.createFunctionSql(o));
}

export async function createVolume(ctx: OpsContext, o: Parameters<typeof ddl.createVolumeSql>[0]): Promise<void> {
  checkRef(o.ref, 'volume');
  await run(ctx, ddl.createVolumeSql(o));
}

export async function dropObject(
  ctx: OpsContext,
  kind: 'TABLE' | 'VIEW' | 'FUNCTION' | 'VOLUME',
  ref: TableRef,
  o?: { ifExists?: boolean },
): Promise<void> {
  await run(ctx, ddl.dropObjectSql(kind, checkRef(ref, kind.toLowerCase()), o));
}

export async function listVolumeFiles(ctx: OpsContext, ref: TableRef): Promise<VolumeFile[]> {
  return ctx.files.list(checkRef(ref, 'volume'));
}

export async function readVolumeFile(ctx: OpsContext, ref: TableRef, path: string): Promise<Buffer> {
  return ctx.files.read(checkRef(ref, 'volume'), path);
}

export async function writeVolumeFile(ctx: OpsContext, ref: TableRef, path: string, data: Buffer): Promise<void> {
  await ctx.files.write(checkRef(ref, 'volume'), path, data);
}

export async function deleteVolumePath(ctx: OpsContext, ref: TableRef, path: string): Promise<void> {
  await ctx.files.deletePath(checkRef(ref, 'volume'), path);
}

/** COPY INTO answers num_affected_rows, num_inserted_rows and num_skipped_corrupt_files. */
export async function copyIntoFromVolume(
  ctx: OpsContext,
  ref: TableRef,
  source: { volume: TableRef; path: string; columns?: { name: string; type: string }[] },
) {
  source.columns?.forEach((c) => columnName(c.name));
  const sql = copyIntoJsonSql(checkRef(ref), checkRef(source.volume, 'volume'), source.path, source.columns);
  return { numOutputRows: await affected(ctx, sql, 'num_inserted_rows') };
}

export async function createTable(ctx: OpsContext, o: CreateTableOptions): Promise<void> {
  checkRef(o.ref);
  o.columns.forEach((c) => columnName(c.name));
  await run(ctx, ddl.createTableSql(o));
}

export async function createTableAs(ctx: OpsContext, o: Parameters<typeof createTableAsSql>[0]): Promise<void> {
  checkRef(o.ref);
  await run(ctx, createTableAsSql(o));
}

/** Databricks DML returns one row: num_affected_rows (+ num_inserted_rows / num_updated_rows / num_deleted_rows). */
async function affected(ctx: OpsContext, sql: string, key: string): Promise<number> {
  const row = await firstRow(ctx, sql);
  return num(row?.[key] ?? row?.num_affected_rows);
}

export async function insertRows(ctx: OpsContext, ref: TableRef, data: Record<string, unknown>[]) {
  checkRef(ref);
  return { numOutputRows: await affected(ctx, dml.insertRowsSql(ref, data), 'num_inserted_rows') };
}

export async function insertQuery(ctx: OpsContext, ref: TableRef, query: string) {
  return { numOutputRows: await affected(ctx, dml.insertQuerySql(checkRef(ref), query), 'num_inserted_rows') };
}

export async function overwriteQuery(ctx: OpsContext, ref: TableRef, query: string) {
  return { numOutputRows: await affected(ctx, dml.overwriteQuerySql(checkRef(ref), query), 'num_inserted_rows') };
}

export async function deleteWhere(ctx: OpsContext, ref: TableRef, predicate: string) {
  return { numDeletedRows: await affected(ctx, dml.deleteWhereSql(checkRef(ref), predicate), 'num_deleted_rows') };
}

export async function updateWhere(ctx: OpsContext, ref: TableRef, set: Record<string, string>, predicate: string) {
  Object.keys(set).forEach(columnName);
  return { numUpdatedRows: await affected(ctx, dml.updateWhereSql(checkRef(ref), set, predicate), 'num_updated_rows') };
}

/** MERGE of change-data-feed rows by key (one statement); nothing to apply → no statement. */
export async function mergeChanges(
  ctx: OpsContext,
  ref: TableRef,
  changes: ChangeRow[],
  opts: { keys: string[] },
): Promise<MergeMetrics> {
  checkRef(ref);
  (opts?.keys ?? []).forEach(columnName);
  const net = netChanges(changes, opts?.keys);
  if (net.upserts.length + net.deletes.length === 0)
    return { numInsertedRows: 0, numUpdatedRows: 0, numDeletedRows: 0 };
  const row = await firstRow(ctx, dml.mergeChangesSql(ref, net, opts.keys));
  return {
    numInsertedRows: num(row?.num_inserted_rows),
    numUpdatedRows: num(row?.num_updated_rows),
    numDeletedRows: num(row?.num_deleted_rows),
  };
}
