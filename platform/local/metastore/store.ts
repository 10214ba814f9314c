import { mkdirSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { AlreadyExistsError, NotFoundError } from '../../errors';
import type { TableRef } from '../../types';
import { exists, listJsonNames, readJson, writeJsonAtomic } from './files';
import { withFileLock } from './lock';
import type { CatalogEntry, EntryByKind, EntryKind, SchemaEntry } from './types';

/** Entry files a listing reads at once. */
const LIST_READ_BATCH = 64;

/**
 * The local metastore: one JSON file per object under the workspace root, so most writes touch one file
 * and need no global lock, and two processes (API + worker) can share the root.
 *
 *   <root>/catalogs/<catalog>/catalog.json
 *   <root>/catalogs/<catalog>/<schema>/schema.json
 *   <root>/catalogs/<catalog>/<schema>/meta/{tables,functions,volumes}/<name>.json   (tables and views share)
 *   <storage>/<schema>/tables/<table>/     Delta (or Parquet) data of managed tables
 *   <storage>/<schema>/volumes/<volume>/   files of managed volumes
 * where <storage> is <managed location>/__lakeward_storage/<catalog> when the catalog has one, else
 * <root>/catalogs/<catalog>.
 * Object names never contain '.', so they cannot collide with the *.json files beside them.
 */
const KIND_LABEL: Record<EntryKind, string> = { tables: 'table or view', functions: 'function', volumes: 'volume' };

export class MetaStore {
  constructor(readonly root: string) {}

  catalogDir(catalog: string): string {
    return path.join(this.root, 'catalogs', catalog);
  }
  catalogFile(catalog: string): string {
    return path.join(this.catalogDir(catalog), 'catalog.json');
  }
  schemaFile(catalog: string, schema: string): string {
    return path.join(this.catalogDir(catalog), schema, 'schema.json');
  }
  entryFile(kind: EntryKind, ref: TableRef): string {
    return path.join(this.catalogDir(ref.catalog), ref.schema, 'meta', kind, `${ref.name}.json`);
  }

  async storageDir(catalog: string): Promise<string> {
    const root = (await this.getCatalog(catalog)).storageRoot;
    // Like Unity Catalog's __unitystorage: two catalogs may share one managed location without colliding.
    return root ? path.join(root, '__lakeward_storage', catalog) : this.catalogDir(catalog);
  }
  async managedTableDir(ref: TableRef): Promise<string> {
    return path.join(await this.storageDir(ref.catalog), ref.schema, 'tables', ref.name);
  }
  async managedVolumeDir(ref: TableRef): Promise<string> {
    return path.join(await this.storageDir(ref.catalog), ref.schema, 'volumes', ref.name);
  }

  // ---- catalogs and schemas ----
  async listCatalogNames(): Promise<string[]> {
    const dir = path.join(this.root, 'catalogs');
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    const present = await Promise.all(names.map((n) => exists(this.catalogFile(n))));
    return names.filter((_, i) => present[i]).sort();
  }
  async findCatalog(name: string): Promise<CatalogEntry | null> {
    return readJson<CatalogEntry>(this.catalogFile(name));
  }
  async getCatalog(name: string): Promise<CatalogEntry> {
    const entry = await this.findCatalog(name);
    if (!entry) throw new NotFoundError(`catalog ${name} not found`);
    return entry;
  }
  async listSchemaNames(catalog: string): Promise<string[]> {
    await this.getCatalog(catalog);
    const names = await fs.readdir(this.catalogDir(catalog)).catch(() => [] as string[]);
    const present = await Promise.all(names.map((n) => exists(this.schemaFile(catalog, n))));
    return names.filter((_, i) => present[i]).sort();
  }
  async getSchema(catalog: string, schema: string): Promise<SchemaEntry> {
    await this.getCatalog(catalog);
    const entry = await readJson<SchemaEntry>(this.schemaFile(catalog, schema));
    if (!entry) throw new NotFoundError(`schema ${catalog}.${schema} not found`);
    return entry;
  }

  // ---- objects ----
  async findEntry<K extends EntryKind>(kind: K, ref: TableRef): Promise<EntryByKind[K] | null> {
    return readJson<EntryByKind[K]>(this.entryFile(kind, ref));
  }
  /** The entry, or NotFoundError naming the first missing level (catalog, schema or object). */
  async getEntry<K extends EntryKind>(kind: K, ref: TableRef): Promise<EntryByKind[K]> {
    const entry = await this.findEntry(kind, ref);
    if (entry) return entry;
    await this.getSchema(ref.catalog, ref.schema);
    throw new NotFoundError(`${KIND_LABEL[kind]} ${ref.catalog}.${ref.schema}.${ref.name} not found`);
  }
  async listEntries<K extends EntryKind>(kind: K, catalog: string, schema: string): Promise<EntryByKind[K][]> {
    await this.getSchema(catalog, schema);
    const dir = path.dirname(this.entryFile(kind, { catalog, schema, name: 'x' }));
    const names = await listJsonNames(dir);
    // Read in bounded batches: a schema of 10,000 tables listed twice at once (tables and views) must not open
    // 20,000 files together (EMFILE at the usual descriptor limits).
    const entries: (EntryByKind[K] | null)[] = [];
    for (let i = 0; i < names.length; i += LIST_READ_BATCH) {
      const batch = names.slice(i, i + LIST_READ_BATCH);
      entries.push(...(await Promise.all(batch.map((name) => this.findEntry(kind, { catalog, schema, name })))));
    }
    return entries.filter((e) => e !== null) as EntryByKind[K][];
  }

  // ---- writes ----
  /** Read-modify-write of one JSON file under its lock; `fn` returning null deletes the file. */
  async mutate<T>(file: string, fn: (current: T | null) => Promise<T | null> | T | null): Promise<T | null> {
    mkdirSync(path.dirname(file), { recursive: true });
    return withFileLock(`${file}.lock`, async () => {
      const next = await fn(await readJson<T>(file));
      if (next === null) await fs.rm(file, { force: true });
      else await writeJsonAtomic(file, next);
      return next;
    });
  }

  /** Updates an existing object (NotFoundError otherwise), stamping lastAltered. */
  async update<T extends { lastAltered: string }>(file: string, what: string, fn: (current: T) => void): Promise<T> {
    const out = await this.mutate<T>(file, (cur) => {
      if (!cur) throw new NotFoundError(`${what} not found`);
      fn(cur);
      cur.lastAltered = new Date().toISOString();
      return cur;
    });
    return out as T;
  }

  /**
   * Creates an object file under its lock. `materialise` runs (inside the lock) before the file is written,
   * e.g. to create the Delta table; if it throws, nothing is registered.
   */
  async create<T>(
    file: string,
    what: string,
    entry: T,
    opts: { replace?: boolean; ifNotExists?: boolean; materialise?: (previous: T | null) => Promise<void> } = {},
  ): Promise<boolean> {
    let created = false;
    await this.mutate<T>(file, async (cur) => {
      if (cur && opts.ifNotExists) return cur;
      if (cur && !opts.replace) throw new AlreadyExistsError(`${what} already exists`);
      await opts.materialise?.(cur);
      created = true;
      return entry;
    });
    return created;
  }

  async writeRaw(file: string, value: unknown): Promise<void> {
    await writeJsonAtomic(file, value);
  }
}
