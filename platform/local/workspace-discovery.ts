import type { CatalogInfo, FunctionInfo, SchemaInfo, TableInfo, TableRef, ViewInfo, VolumeInfo } from '../types';
import type { CatalogEntry, SchemaEntry } from './metastore/types';
import type { LocalContext } from './workspace-context';
import { tableInfo } from './workspace-describe';

/** Listing catalogs, schemas and the objects in a schema. */
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

export { describeTable, tableDetail, tableHistory, visibleProperties } from './workspace-describe';
