import type { CatalogInventory } from '../../activities/analysis/logic/diff';
import { NotFoundError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { FunctionInfo, TableInfo, ViewInfo, VolumeInfo } from '../../platform/types';
import { metadataCacheFor, type MetadataCache } from '../cache';
import type { AppDeps } from '../deps';
import { fieldNotFound } from '../clone/errors';

/**
 * Workspace listings for the analysis reads, through the metadata cache (TTL `cache.ttl_seconds`, entries
 * tagged with their catalog so a finished clone or sync drops them). Data (counts, checksums, rows) is never
 * cached: only names, definitions and columns.
 */
export class CatalogReader {
  constructor(
    readonly ws: Workspace,
    private readonly cache: MetadataCache,
  ) {}

  static for(deps: AppDeps, ws: Workspace): CatalogReader {
    return new CatalogReader(ws, metadataCacheFor(deps).cache);
  }

  private key(what: string, catalog: string, parts: string[]): string {
    return ['analysis', this.ws.id, what, catalog, ...parts].map((p) => p.toLowerCase()).join('\u0000');
  }

  private load<T>(what: string, catalog: string, parts: string[], fn: () => Promise<T>): Promise<T> {
    return this.cache.getOrLoad(this.key(what, catalog, parts), catalog, fn);
  }

  catalogs() {
    return this.load('catalogs', '', [], () => this.ws.listCatalogs());
  }

  /** Whether the catalog exists; a 404 naming `field` when `field` is given and it does not. */
  async hasCatalog(catalog: string, field?: string): Promise<boolean> {
    const named = (list: { name: string }[]) => list.some((c) => c.name.toLowerCase() === catalog.toLowerCase());
    let exists = named(await this.catalogs());
    if (!exists) {
      // The cached list may predate the catalog (it is not tied to one catalog): a miss reads it afresh.
      const fresh = await this.ws.listCatalogs();
      this.cache.set(this.key('catalogs', '', []), fresh);
      exists = named(fresh);
    }
    if (!exists && field) throw fieldNotFound(field, `catalog ${catalog} does not exist`);
    return exists;
  }

  schemas(catalog: string) {
    return this.load('schemas', catalog, [], () => this.ws.listSchemas(catalog));
  }

  tables(catalog: string, schema: string): Promise<TableInfo[]> {
    return this.load('tables', catalog, [schema], () => orEmpty(this.ws.listTables(catalog, schema)));
  }

  views(catalog: string, schema: string): Promise<ViewInfo[]> {
    return this.load('views', catalog, [schema], () => orEmpty(this.ws.listViews(catalog, schema)));
  }

  functions(catalog: string, schema: string): Promise<FunctionInfo[]> {
    return this.load('functions', catalog, [schema], () => orEmpty(this.ws.listFunctions(catalog, schema)));
  }

  volumes(catalog: string, schema: string): Promise<VolumeInfo[]> {
    return this.load('volumes', catalog, [schema], () => orEmpty(this.ws.listVolumes(catalog, schema)));
  }

  columns(catalog: string, schema: string, table: string): Promise<{ name: string; type: string }[]> {
    return this.load('columns', catalog, [schema, table], async () =>
      (await this.ws.describeTable({ catalog, schema, name: table })).columns.map((c) => ({
        name: c.name,
        type: c.type,
      })),
    );
  }

  properties(catalog: string, schema: string, table: string): Promise<Record<string, string>> {
    return this.load('properties', catalog, [schema, table], () =>
      this.ws.getProperties({ catalog, schema, name: table }),
    );
  }

  /** Schema names of the catalog (lower case) minus `exclude` and `information_schema`. */
  async schemaNames(catalog: string, exclude: string[] = []): Promise<string[]> {
    const skip = new Set(['information_schema', ...exclude.map((e) => e.toLowerCase())]);
    return (await this.schemas(catalog)).map((s) => s.name.toLowerCase()).filter((s) => !skip.has(s));
  }

  /** Everything a diff compares: schemas, `schema.name` keys per kind, and each table's columns. */
  async inventory(catalog: string, exclude: string[] = []): Promise<CatalogInventory> {
    const inv: CatalogInventory = { schemas: [], tables: {}, views: [], functions: [], volumes: [] };
    if (!(await this.hasCatalog(catalog))) return inv;
    inv.schemas = await this.schemaNames(catalog, exclude);
    const key = (o: { schema: string; name: string }) => `${o.schema}.${o.name}`.toLowerCase();
    await Promise.all(
      inv.schemas.map(async (schema) => {
        const [tables, views, functions, volumes] = await Promise.all([
          this.tables(catalog, schema),
          this.views(catalog, schema),
          this.functions(catalog, schema),
          this.volumes(catalog, schema),
        ]);
        for (const t of tables.filter((t) => t.tableType !== 'VIEW'))
          inv.tables[key(t)] = await this.columns(catalog, t.schema, t.name);
        inv.views.push(...views.map(key));
        inv.functions.push(...functions.map(key));
        inv.volumes.push(...volumes.map(key));
      }),
    );
    return inv;
  }
}

async function orEmpty<T>(p: Promise<T[]>): Promise<T[]> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof NotFoundError) return [];
    throw err;
  }
}
