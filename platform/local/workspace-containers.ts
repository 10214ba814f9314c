import { promises as fs } from 'node:fs';
import path from 'node:path';
import { InvalidInputError } from '../errors';
import { removeDir } from './metastore/files';
import { baseEntry, type CatalogEntry, type SchemaEntry, type TableEntry } from './metastore/types';
import type { LocalContext } from './workspace-context';

/** Catalogs and schemas: create, and drop (CASCADE removes managed data; external data is left alone). */
export async function createCatalog(
  ctx: LocalContext,
  opts: { name: string; managedLocation?: string; comment?: string; ifNotExists?: boolean },
): Promise<void> {
  const name = ctx.name(opts?.name, 'catalog name');
  if (
    opts.managedLocation !== undefined &&
    (typeof opts.managedLocation !== 'string' || !path.isAbsolute(opts.managedLocation))
  ) {
    throw new InvalidInputError(
      `managedLocation must be an absolute folder path, got ${JSON.stringify(opts.managedLocation)}`,
    );
  }
  const entry: CatalogEntry = {
    ...baseEntry(name, ctx.user, opts.comment ?? null),
    storageRoot: opts.managedLocation ? path.resolve(opts.managedLocation) : null,
  };
  await ctx.store.create(ctx.store.catalogFile(name), `catalog ${name}`, entry, { ifNotExists: opts.ifNotExists });
}

export async function createSchema(
  ctx: LocalContext,
  opts: { catalog: string; name: string; comment?: string; ifNotExists?: boolean },
): Promise<void> {
  const catalog = ctx.name(opts?.catalog, 'catalog name');
  const name = ctx.name(opts.name, 'schema name');
  if (name === 'information_schema') throw new InvalidInputError('information_schema is reserved');
  await ctx.store.getCatalog(catalog);
  const entry: SchemaEntry = { ...baseEntry(name, ctx.user, opts.comment ?? null), catalog };
  await ctx.store.create(ctx.store.schemaFile(catalog, name), `schema ${catalog}.${name}`, entry, {
    ifNotExists: opts.ifNotExists,
  });
}

/** Deletes a table's registration, then (managed only) its data folder. */
export async function dropTableEntry(ctx: LocalContext, entry: TableEntry): Promise<void> {
  await ctx.store.mutate(ctx.store.entryFile('tables', entry), () => null);
  if (entry.tableType === 'MANAGED' && entry.location) await removeDir(entry.location);
}

export async function dropSchema(
  ctx: LocalContext,
  catalog: string,
  schema: string,
  opts: { cascade?: boolean; ifExists?: boolean } = {},
): Promise<void> {
  const cat = ctx.name(catalog, 'catalog name');
  const sch = ctx.name(schema, 'schema name');
  const entry = await ctx.store.getSchema(cat, sch).catch((err) => {
    if (opts.ifExists && err?.code === 'NOT_FOUND') return null;
    throw err;
  });
  if (!entry) return;
  const [tables, functions, volumes] = await Promise.all([
    ctx.store.listEntries('tables', cat, sch),
    ctx.store.listEntries('functions', cat, sch),
    ctx.store.listEntries('volumes', cat, sch),
  ]);
  if (!opts.cascade && tables.length + functions.length + volumes.length > 0) {
    throw new InvalidInputError(
      `schema ${cat}.${sch} is not empty (${tables.length} tables/views, ${functions.length} functions, ${volumes.length} volumes); use cascade`,
    );
  }
  // The schema disappears first, so nobody sees a half-dropped schema; then its objects' data goes.
  await ctx.store.mutate(ctx.store.schemaFile(cat, sch), () => null);
  for (const t of tables) if (t.tableType === 'MANAGED' && t.location) await removeDir(t.location);
  for (const v of volumes) if (v.volumeType === 'MANAGED' && v.storageLocation) await removeDir(v.storageLocation);
  await removeDir(path.join(ctx.store.catalogDir(cat), sch));
  const storage = await ctx.store.storageDir(cat);
  if (storage !== ctx.store.catalogDir(cat)) await removeDir(path.join(storage, sch));
}

export async function dropCatalog(
  ctx: LocalContext,
  name: string,
  opts: { cascade?: boolean; ifExists?: boolean } = {},
): Promise<void> {
  const cat = ctx.name(name, 'catalog name');
  const entry = await ctx.store.findCatalog(cat);
  if (!entry) {
    if (opts.ifExists) return;
    await ctx.store.getCatalog(cat);
  }
  const schemas = await ctx.store.listSchemaNames(cat);
  if (!opts.cascade && schemas.length > 0) {
    throw new InvalidInputError(`catalog ${cat} is not empty (${schemas.length} schemas); use cascade`);
  }
  for (const s of schemas) await dropSchema(ctx, cat, s, { cascade: true });
  const storage = await ctx.store.storageDir(cat);
  await ctx.store.mutate(ctx.store.catalogFile(cat), () => null);
  await removeDir(ctx.store.catalogDir(cat));
  if (storage !== ctx.store.catalogDir(cat)) await removeDir(storage);
}

export async function ensureDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
}
