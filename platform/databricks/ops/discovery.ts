import { InvalidInputError, NotFoundError } from '../../errors';
import type {
  CatalogInfo,
  ColumnInfo,
  FunctionInfo,
  HistoryEntry,
  SchemaInfo,
  TableDescription,
  TableDetail,
  TableInfo,
  TableRef,
  ViewInfo,
  VolumeInfo,
} from '../../types';
import * as q from '../sql/discovery';
import { checkRef, ucName } from '../sql/names';
import { firstRow, rows, type OpsContext } from './context';
import { historyEntry, iso, num, str, tableDetail as detailOf, tableInfo } from './mappers';

export async function listCatalogs(ctx: OpsContext): Promise<CatalogInfo[]> {
  return (await rows(ctx, q.listCatalogsSql())).map((r) => ({
    name: String(r.catalog_name),
    owner: str(r.catalog_owner),
    comment: str(r.comment),
    storageRoot: null,
    properties: {},
    createdAt: iso(r.created),
  }));
}

/** Storage root and properties are only in the REST representation. */
export async function getCatalog(ctx: OpsContext, name: string): Promise<CatalogInfo> {
  const c = await ctx.uc.getCatalog(ucName(name, 'catalog name'));
  return {
    name: c.name,
    owner: c.owner ?? null,
    comment: c.comment ?? null,
    storageRoot: c.storage_root ?? null,
    properties: c.properties ?? {},
    createdAt: c.created_at ? new Date(c.created_at).toISOString() : null,
  };
}

export async function listSchemas(ctx: OpsContext, catalog: string): Promise<SchemaInfo[]> {
  const list = await rows(ctx, q.listSchemasSql(ucName(catalog, 'catalog name')));
  return list.map((r) => ({
    catalog: String(r.catalog_name),
    name: String(r.schema_name),
    owner: str(r.schema_owner),
    comment: str(r.comment),
    properties: {},
  }));
}

export async function getSchema(ctx: OpsContext, catalog: string, schema: string): Promise<SchemaInfo> {
  const s = await ctx.uc.getSchema(`${ucName(catalog, 'catalog name')}.${ucName(schema, 'schema name')}`);
  return {
    catalog: s.catalog_name,
    name: s.name,
    owner: s.owner ?? null,
    comment: s.comment ?? null,
    properties: s.properties ?? {},
  };
}

export async function listTables(ctx: OpsContext, catalog: string, schema: string): Promise<TableInfo[]> {
  return (await rows(ctx, q.listTablesSql(ucName(catalog, 'catalog name'), ucName(schema, 'schema name')))).map(
    tableInfo,
  );
}

export async function listViews(ctx: OpsContext, catalog: string, schema: string): Promise<ViewInfo[]> {
  const list = await rows(ctx, q.listViewsSql(ucName(catalog, 'catalog name'), ucName(schema, 'schema name')));
  return list.map((r) => ({
    catalog: String(r.table_catalog),
    schema: String(r.table_schema),
    name: String(r.table_name),
    definition: str(r.view_definition) ?? '',
    owner: str(r.table_owner),
    comment: str(r.comment),
  }));
}

export async function listFunctions(ctx: OpsContext, catalog: string, schema: string): Promise<FunctionInfo[]> {
  ucName(catalog, 'catalog name');
  ucName(schema, 'schema name');
  const routines = await rows(ctx, q.listRoutinesSql(catalog, schema));
  const params = await rows(ctx, q.listParametersSql(catalog, schema));
  return routines.map((r) => ({
    catalog: String(r.routine_catalog),
    schema: String(r.routine_schema),
    name: String(r.routine_name),
    parameters: params
      .filter((p) => p.specific_name === r.specific_name)
      .map((p) => `${p.parameter_name} ${p.full_data_type}`)
      .join(', '),
    returnType: String(r.full_data_type ?? ''),
    body: String(r.routine_definition ?? ''),
    owner: null,
    comment: str(r.comment),
  }));
}

export async function listVolumes(ctx: OpsContext, catalog: string, schema: string): Promise<VolumeInfo[]> {
  const list = await rows(ctx, q.listVolumesSql(ucName(catalog, 'catalog name'), ucName(schema, 'schema name')));
  return list.map((r) => ({
    catalog: String(r.volume_catalog),
    schema: String(r.volume_schema),
    name: String(r.volume_name),
    volumeType: r.volume_type === 'EXTERNAL' ? 'EXTERNAL' : 'MANAGED',
    storageLocation: str(r.storage_location),
    owner: str(r.volume_owner),
    comment: str(r.comment),
  }));
}

export async function tableExists(ctx: OpsContext, ref: TableRef): Promise<boolean> {
  return (await rows(ctx, q.findTableSql(checkRef(ref)))).length > 0;
}

/** Table row, columns, then (for Delta) DESCRIBE DETAIL and the newest history entry for the version. */
export async function describeTable(ctx: OpsContext, ref: TableRef): Promise<TableDescription> {
  const found = await firstRow(ctx, q.findTableSql(checkRef(ref)));
  if (!found) throw new NotFoundError(`table ${ref.catalog}.${ref.schema}.${ref.name} not found`);
  const info = tableInfo(found);
  const columns: ColumnInfo[] = (await rows(ctx, q.listColumnsSql(ref))).map((c) => ({
    name: String(c.column_name),
    type: String(c.full_data_type ?? '').toLowerCase(),
    nullable: c.is_nullable !== 'NO',
    comment: str(c.comment),
    position: num(c.ordinal_position),
  }));
  const base = { ...info, columns, partitionColumns: [] as string[], properties: {}, version: null, numFiles: null };
  if (info.tableType === 'VIEW') return base;
  // DESCRIBE DETAIL is a Delta command; other formats keep the information_schema view of the table.
  const detail = await tableDetail(ctx, ref).catch((err: unknown) => {
    if (info.format !== 'DELTA' && err instanceof InvalidInputError) return null;
    throw err;
  });
  if (!detail) return base;
  const latest = info.format === 'DELTA' ? (await tableHistory(ctx, ref, 1))[0] : undefined;
  return {
    ...base,
    location: detail.location,
    sizeBytes: detail.sizeInBytes,
    partitionColumns: detail.partitionColumns,
    properties: detail.properties,
    version: latest?.version ?? null,
    numFiles: detail.numFiles,
  };
}

export async function tableHistory(ctx: OpsContext, ref: TableRef, limit?: number): Promise<HistoryEntry[]> {
  return (await rows(ctx, q.describeHistorySql(checkRef(ref), limit))).map(historyEntry);
}

export async function tableDetail(ctx: OpsContext, ref: TableRef): Promise<TableDetail> {
  const row = await firstRow(ctx, q.describeDetailSql(checkRef(ref)));
  if (!row) throw new NotFoundError(`table ${ref.catalog}.${ref.schema}.${ref.name} has no detail`);
  return detailOf(row);
}
