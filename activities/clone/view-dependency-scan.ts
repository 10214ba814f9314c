import { NotFoundError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { TableInfo, ViewInfo } from '../../platform/types';
import type { CloneOptions } from '../../schemas/clone';
import type { TargetContext } from '../../workflows/clone/engine-types';
import {
  NO_DEPENDENCIES,
  planViewDependencies,
  type CatalogObject,
  type DependencyPlan,
} from './logic/view-dependencies';
import { chooseSchemas, leftOutBy, nameSelected, selectionFor } from './selection';
import { objectReferences } from './logic/sql-identifiers';
import { viewKey } from './logic/view-order';

async function orEmpty<T>(p: Promise<T[]>): Promise<T[]> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof NotFoundError) return [];
    throw err;
  }
}

/** The source catalog's schemas, tables and views, each listed once and on demand. */
export class SourceListing {
  private schemaList: Promise<string[]> | null = null;
  private readonly tableLists = new Map<string, Promise<TableInfo[]>>();
  private readonly viewLists = new Map<string, Promise<ViewInfo[]>>();

  constructor(
    private readonly src: Workspace,
    readonly catalog: string,
  ) {}

  schemas(): Promise<string[]> {
    this.schemaList ??= this.src.listSchemas(this.catalog).then((s) => s.map((x) => x.name));
    return this.schemaList;
  }

  /** Tables the clone copies (managed and external; views are listed apart). */
  tables(schema: string): Promise<TableInfo[]> {
    const k = schema.toLowerCase();
    let p = this.tableLists.get(k);
    if (!p) {
      p = orEmpty(this.src.listTables(this.catalog, schema)).then((ts) =>
        ts.filter((t) => t.tableType === 'MANAGED' || t.tableType === 'EXTERNAL'),
      );
      this.tableLists.set(k, p);
    }
    return p;
  }

  views(schema: string): Promise<ViewInfo[]> {
    const k = schema.toLowerCase();
    let p = this.viewLists.get(k);
    if (!p) {
      p = orEmpty(this.src.listViews(this.catalog, schema));
      this.viewLists.set(k, p);
    }
    return p;
  }

  async view(schema: string, name: string): Promise<ViewInfo | undefined> {
    return (await this.views(schema)).find((v) => v.name.toLowerCase() === name.toLowerCase());
  }
}

/**
 * The dependency plan of one schema's views: lists the schemas those views (and the views they read,
 * transitively) name, marks what the filters leave out and plans skips or pull-ins.
 */
export async function scanViewDependencies(
  listing: SourceListing,
  options: CloneOptions,
  schema: string,
): Promise<DependencyPlan> {
  const all = await listing.schemas();
  const sel = selectionFor(options);
  const chosen = chooseSchemas(all, sel).schemas;
  const realName = new Map(all.map((s) => [s.toLowerCase(), s]));
  const catalog = options.source_catalog.toLowerCase();
  const objects: CatalogObject[] = [];
  const loaded = new Set<string>();
  const load = async (s: string) => {
    if (loaded.has(s.toLowerCase())) return;
    loaded.add(s.toLowerCase());
    for (const t of await listing.tables(s))
      objects.push({ schema: s, name: t.name, kind: 'table', leftOut: leftOutBy(s, t.name, options, chosen, sel) });
    for (const v of await listing.views(s))
      objects.push({
        schema: s,
        name: v.name,
        kind: 'view',
        definition: v.definition,
        leftOut: leftOutBy(s, v.name, options, chosen, sel),
      });
  };
  const roots = (await listing.views(schema)).filter((v) => nameSelected(v.name, sel));
  if (roots.length === 0) return NO_DEPENDENCIES;
  await load(schema);
  const queue = [...roots];
  const seen = new Set(roots.map((v) => viewKey(v.schema, v.name)));
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const ref of objectReferences(v.definition)) {
      if (ref.isCall || (ref.catalog !== null && ref.catalog.toLowerCase() !== catalog)) continue;
      const s = realName.get((ref.schema ?? v.schema).toLowerCase());
      if (s === undefined) continue;
      await load(s);
      const dep = await listing.view(s, ref.name);
      if (dep && !seen.has(viewKey(s, dep.name))) {
        seen.add(viewKey(s, dep.name));
        queue.push(dep);
      }
    }
  }
  return planViewDependencies({
    catalog: options.source_catalog,
    objects,
    roots: roots.map((v) => viewKey(v.schema, v.name)),
    includeDependencies: options.include_dependencies === true,
  });
}

/** The plan of one schema when this target clones views (always within a workspace; across, with clone_views). */
export async function schemaViewDependencies(
  src: Workspace,
  ctx: TargetContext,
  schema: string,
  listing = new SourceListing(src, ctx.options.source_catalog),
): Promise<DependencyPlan> {
  if (ctx.crossWorkspace && !ctx.options.clone_views) return NO_DEPENDENCIES;
  return scanViewDependencies(listing, ctx.options, schema);
}
