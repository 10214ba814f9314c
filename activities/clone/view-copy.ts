import { NotFoundError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { ViewInfo } from '../../platform/types';
import type { TargetContext } from '../../workflows/clone/engine-types';
import { isLogicalError } from './failures';
import { copySecurable, Warnings } from './metadata-copy';
import { objectReferences, rewriteCatalogRefs } from './sql-identifiers';
import { nameSelected, selectionFor } from './selection';
import { orderViews, viewKey } from './view-order';

export interface ViewOutcome {
  cloned: number;
  failed: { view: string; error: string }[];
  skipped: number;
  warnings: string[];
}

/**
 * Views of one schema in dependency order. A view may read views of other schemas: those are created
 * first, on demand (their own schema workflow re-creating them later is harmless: CREATE OR REPLACE).
 * Views on a dependency cycle are reported as failed, never attempted.
 */
export class ViewCopier {
  private readonly sourceViews = new Map<string, Promise<Map<string, ViewInfo>>>();
  private readonly created = new Set<string>();
  readonly w = new Warnings();

  constructor(
    private readonly src: Workspace,
    private readonly dst: Workspace,
    private readonly ctx: TargetContext,
  ) {}

  async cloneSchema(schema: string): Promise<ViewOutcome> {
    const o = this.ctx.options;
    const sel = selectionFor(o);
    const all = [...(await this.viewsOf(schema)).values()];
    let views = all.filter((v) => nameSelected(v.name, sel));
    let skipped = 0;
    if (o.load_type === 'INCREMENTAL') {
      const have = await this.destViews(schema);
      skipped = views.filter((v) => have.has(v.name.toLowerCase())).length;
      views = views.filter((v) => !have.has(v.name.toLowerCase()));
    }
    const { order, cycles } = orderViews(views, o.source_catalog);
    const byKey = new Map(views.map((v) => [viewKey(v.schema, v.name), v]));
    const out: ViewOutcome = { cloned: 0, failed: [], skipped, warnings: this.w.list };
    for (const group of cycles) {
      for (const key of group)
        out.failed.push({ view: key, error: `dependency cycle among views ${group.join(', ')}` });
    }
    for (const key of order) {
      const view = byKey.get(key)!;
      try {
        await this.create(view, new Set());
        out.cloned += 1;
      } catch (err) {
        if (!isLogicalError(err)) throw err;
        out.failed.push({ view: key, error: (err as Error).message });
      }
    }
    return out;
  }

  private async create(view: ViewInfo, visiting: Set<string>): Promise<void> {
    const key = viewKey(view.schema, view.name);
    if (this.created.has(key)) return;
    visiting.add(key);
    await this.createDependencies(view, visiting);
    const o = this.ctx.options;
    const ref = { catalog: this.ctx.target.destinationCatalog, schema: view.schema, name: view.name };
    await this.dst.createView({
      ref,
      definition: rewriteCatalogRefs(view.definition, o.source_catalog, this.ctx.target.destinationCatalog),
      comment: o.copy_comments ? view.comment : null,
      replace: true,
    });
    this.created.add(key);
    await copySecurable(
      this.src,
      this.dst,
      { type: 'VIEW', catalog: o.source_catalog, schema: view.schema, name: view.name },
      { type: 'VIEW', ...ref },
      o,
      this.w,
      `view ${view.schema}.${view.name}`,
    );
  }

  /** Views of other schemas this view reads and the destination lacks. */
  private async createDependencies(view: ViewInfo, visiting: Set<string>): Promise<void> {
    const catalog = this.ctx.options.source_catalog.toLowerCase();
    for (const ref of objectReferences(view.definition)) {
      if (ref.isCall || ref.schema === null || ref.schema.toLowerCase() === view.schema.toLowerCase()) continue;
      if (ref.catalog !== null && ref.catalog.toLowerCase() !== catalog) continue;
      const key = viewKey(ref.schema, ref.name);
      if (visiting.has(key) || this.created.has(key)) continue;
      const dep = (await this.viewsOf(ref.schema).catch(() => new Map<string, ViewInfo>())).get(ref.name.toLowerCase());
      if (!dep || (await this.destViews(ref.schema)).has(ref.name.toLowerCase())) continue;
      await this.create(dep, visiting);
    }
  }

  private viewsOf(schema: string): Promise<Map<string, ViewInfo>> {
    let p = this.sourceViews.get(schema.toLowerCase());
    if (!p) {
      p = this.src
        .listViews(this.ctx.options.source_catalog, schema)
        .then((vs) => new Map(vs.map((v) => [v.name.toLowerCase(), v])));
      this.sourceViews.set(schema.toLowerCase(), p);
    }
    return p;
  }

  private async destViews(schema: string): Promise<Set<string>> {
    try {
      return new Set(
        (await this.dst.listViews(this.ctx.target.destinationCatalog, schema)).map((v) => v.name.toLowerCase()),
      );
    } catch (err) {
      if (err instanceof NotFoundError) return new Set();
      throw err;
    }
  }
}
