import { promises as fs } from 'node:fs';
import type {
  CatalogInfo,
  FunctionInfo,
  HistoryEntry,
  SchemaInfo,
  TableDescription,
  TableDetail,
  TableInfo,
  TableRef,
  ViewInfo,
  VolumeInfo,
} from '../types';
import type { CatalogEntry, SchemaEntry, TableEntry } from './metastore/types';
import { isConstraintProperty, rawProperties } from './workspace-constraints';
import type { LocalContext } from './workspace-context';
import { parquetFiles } from './workspace-scan';
import { runQuery } from './workspace-sql';

const catalogInfo = (e: CatalogEntry): CatalogInfo => ({
  name: e.name,
  owner: e.owner,
  comment: e.comment,
  storageRoot: e.storageRoot,
  properties: e.properties,
  createdAt: e.createdAt,
});
const schemaInfo = (e: SchemaEntry): SchemaInfo => ({
  catalog: e.catalog,
  name: e.name,
  owner: e.owner,
  comment: e.comment,
  properties: e.properties,
});

async function mapLimited<T, U>(items: T[], limit: number, fn: (t: T) => Promise<U>): Promise<U[]> {
  const out: U[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export async function listCatalogs(ctx: LocalContext): Promise<CatalogInfo[]> {
  const names = await ctx.store.listCatalogNames();
  return (await Promise.all(names.map((n) => ctx.store.findCatalog(n)))).filter((e) => e !== null).map(catalogInfo);
}
export async function getCatalog(ctx: LocalContext, name: string): Promise<CatalogInfo> {
  return catalogInfo(await ctx.store.getCatalog(ctx.name(name, 'catalog name')));
}
export async function listSchemas(ctx: LocalContext, catalog: string): Promise<SchemaInfo[]> {
  const cat = ctx.name(catalog, 'catalog name');
  const names = await ctx.store.listSchemaNames(cat);
  return Promise.all(names.map(async (n) => schemaInfo(await ctx.store.getSchema(cat, n))));
}
export async function getSchema(ctx: LocalContext, catalog: string, schema: string): Promise<SchemaInfo> {
  return schemaInfo(await ctx.store.getSchema(ctx.name(catalog, 'catalog name'), ctx.name(schema, 'schema name')));
}

/** Size, file count and version of a table's current data (cheap: one snapshot read, or a folder listing). */
async function dataStats(ctx: LocalContext, e: TableEntry) {
  if (e.format === 'DELTA') {
    const snap = await (await ctx.delta(e)).snapshot();
    return {
      sizeBytes: snap.sizeInBytes,
      numFiles: snap.numFiles,
      version: snap.version as number | null,
      modified: new Date(snap.timestamp).toISOString(),
      snap,
    };
  }
  const files = await parquetFiles(e.location!);
  const sizes = await Promise.all(files.map(async (f) => (await fs.stat(f)).size));
  return {
    sizeBytes: sizes.reduce((a, b) => a + b, 0),
    numFiles: files.length,
    version: null,
    modified: e.lastAltered,
    snap: null,
  };
}

async function tableInfo(ctx: LocalContext, e: TableEntry): Promise<TableInfo> {
  const stats = await dataStats(ctx, e);
  const lastAltered = stats.modified > e.lastAltered ? stats.modified : e.lastAltered;
  return {
    catalog: e.catalog,
    schema: e.schema,
    name: e.name,
    tableType: e.tableType,
    format: e.format,
    owner: e.owner,
    comment: e.comment,
    location: e.location,
    sizeBytes: stats.sizeBytes,
    createdAt: e.createdAt,
    lastAltered,
  };
}

export async function listTables(ctx: LocalContext, catalog: string, schema: string): Promise<TableInfo[]> {
  const entries = await ctx.store.listEntries(
    'tables',
    ctx.name(catalog, 'catalog name'),
    ctx.name(schema, 'schema name'),
  );
  return mapLimited(
    entries.filter((e) => e.kind === 'TABLE'),
    8,
    (e) => tableInfo(ctx, e),
  );
}
export async function listViews(ctx: LocalContext, catalog: string, schema: string): Promise<ViewInfo[]> {
  const entries = await ctx.store.listEntries(
    'tables',
    ctx.name(catalog, 'catalog name'),
    ctx.name(schema, 'schema name'),
  );
  return entries
    .filter((e) => e.kind === 'VIEW')
    .map((e) => ({
      catalog: e.catalog,
      schema: e.schema,
      name: e.name,
      definition: e.definition ?? '',
      owner: e.owner,
      comment: e.comment,
    }));
}
export async function listFunctions(ctx: LocalContext, catalog: string, schema: string): Promise<FunctionInfo[]> {
  const entries = await ctx.store.listEntries(
    'functions',
    ctx.name(catalog, 'catalog name'),
    ctx.name(schema, 'schema name'),
  );
  return entries.map((e) => ({
    catalog: e.catalog,
    schema: e.schema,
    name: e.name,
    parameters: e.parameters,
    returnType: e.returnType,
    body: e.body,
    owner: e.owner,
    comment: e.comment,
  }));
}
export async function listVolumes(ctx: LocalContext, catalog: string, schema: string): Promise<VolumeInfo[]> {
  const entries = await ctx.store.listEntries(
    'volumes',
    ctx.name(catalog, 'catalog name'),
    ctx.name(schema, 'schema name'),
  );
  return entries.map((e) => ({
    catalog: e.catalog,
    schema: e.schema,
    name: e.name,
    volumeType: e.volumeType,
    storageLocation: e.storageLocation,
    owner: e.owner,
    comment: e.comment,
  }));
}

export async function tableExists(ctx: LocalContext, ref: TableRef): Promise<boolean> {
  const entry = await ctx.store.findEntry('tables', ctx.ref(ref));
  return entry !== null && entry.kind === 'TABLE';
}

/** Table properties as SHOW TBLPROPERTIES lists them, minus CHECK constraints (listConstraints has those). */
export async function visibleProperties(ctx: LocalContext, e: TableEntry): Promise<Record<string, string>> {
  const props = e.kind === 'VIEW' ? e.properties : await rawProperties(ctx, e);
  return Object.fromEntries(Object.entries(props).filter(([k]) => !isConstraintProperty(k)));
}

export async function describeTable(ctx: LocalContext, ref: TableRef): Promise<TableDescription> {
  const e = await ctx.store.getEntry('tables', ctx.ref(ref));
  if (e.kind === 'VIEW') {
    return {
      catalog: e.catalog,
      schema: e.schema,
      name: e.name,
      tableType: 'VIEW',
      format: null,
      owner: e.owner,
      comment: e.comment,
      location: null,
      sizeBytes: null,
      createdAt: e.createdAt,
      lastAltered: e.lastAltered,
      columns: await viewColumns(ctx, e),
      partitionColumns: [],
      properties: e.properties,
      version: null,
      numFiles: null,
    };
  }
  const [info, stats, columns, properties] = await Promise.all([
    tableInfo(ctx, e),
    dataStats(ctx, e),
    ctx.columns(e),
    visibleProperties(ctx, e),
  ]);
  return {
    ...info,
    columns,
    properties,
    version: stats.version,
    numFiles: stats.numFiles,
    partitionColumns: stats.snap ? stats.snap.metadata.partitionColumns : (e.partitionColumns ?? []),
  };
}

async function viewColumns(ctx: LocalContext, e: TableEntry) {
  const result = await runQuery(ctx, `SELECT * FROM \`${e.catalog}\`.\`${e.schema}\`.\`${e.name}\` LIMIT 0`);
  return result.columns.map((c, i) => ({
    name: c.name,
    type: c.type,
    nullable: true,
    comment: e.columnComments[c.name] ?? null,
    position: i + 1,
  }));
}

export async function tableHistory(ctx: LocalContext, ref: TableRef, limit?: number): Promise<HistoryEntry[]> {
  return (await ctx.delta(await ctx.table(ctx.ref(ref)))).history(limit);
}

export async function tableDetail(ctx: LocalContext, ref: TableRef): Promise<TableDetail> {
  const e = await ctx.table(ctx.ref(ref));
  if (e.format === 'DELTA') {
    const detail = await (await ctx.delta(e)).detail();
    return {
      ...detail,
      name: `${e.catalog}.${e.schema}.${e.name}`,
      description: e.comment,
      properties: await visibleProperties(ctx, e),
    };
  }
  const stats = await dataStats(ctx, e);
  return {
    format: e.format!.toLowerCase(),
    id: null,
    name: `${e.catalog}.${e.schema}.${e.name}`,
    description: e.comment,
    location: e.location,
    createdAt: e.createdAt,
    lastModified: stats.modified,
    partitionColumns: e.partitionColumns ?? [],
    numFiles: stats.numFiles,
    sizeInBytes: stats.sizeBytes,
    properties: e.properties,
    minReaderVersion: null,
    minWriterVersion: null,
  };
}
