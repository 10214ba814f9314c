import { NotFoundError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { TableRef, ViewInfo } from '../../platform/types';
import type { TargetContext } from '../../workflows/clone/engine-types';
import { isLogicalError } from './failures';
import type { PulledIn } from './logic/view-dependencies';
import { copySecurable, Warnings } from './metadata-copy';
import { objectReferences, rewriteCatalogRefs } from './logic/sql-identifiers';
import { nameSelected, selectionFor } from './selection';
import { transferTable } from './table-transfer';
import { schemaViewDependencies, SourceListing } from './view-dependency-scan';
import { orderViews, viewKey } from './logic/view-order';

export interface ViewOutcome {
  cloned: number;
  failed: { view: string; error: string }[];
  /** Already in the destination (INCREMENTAL) or reading what the clone leaves out. */
  skipped: number;
  /** Tables of other schemas pulled in by include_dependencies. */
  bytesCopied: number;
  filesCopied: number;
  warnings: string[];
}

/**
 * Views of one schema in dependency order. A view may read views of other schemas: those are created
 * first, on demand (their own schema workflow re-creating them later is harmless: CREATE OR REPLACE).
 * Views on a dependency cycle are reported as failed, never attempted. Views reading objects the filters
 * leave out are skipped (prepareSchema already reported them); with include_dependencies those objects are
 * created first instead: views on demand, tables of other schemas copied here (this schema's own were
 * planned with its tables).
 */
export class ViewCopier {
  private readonly listing: SourceListing;
  private readonly created = new Set<string>();
  private pulled = new Map<string, PulledIn>();
  readonly w = new Warnings();
  private bytes = 0;
  private files = 0;
  private ownSchema = '';

  constructor(
    private readonly src: Workspace,
    private readonly dst: Workspace,
    private readonly ctx: TargetContext,
    private readonly beforeTableTouched: (ref: TableRef) => Promise<unknown> = async () => undefined,
  ) {
    this.listing = new SourceListing(src, ctx.options.source_catalog);
  }

  async cloneSchema(schema: string): Promise<ViewOutcome> {
    const o = this.ctx.options;
    this.ownSchema = schema.toLowerCase();
    const plan = await schemaViewDependencies(this.src, this.ctx, schema, this.listing);
    this.pulled = new Map(plan.pulledIn.map((p) => [p.key, p]));
    const skippedKeys = new Set(plan.skipped.map((s) => s.key));
    const sel = selectionFor(o);
    let views = (await this.listing.views(schema)).filter(
      (v) => nameSelected(v.name, sel) && !skippedKeys.has(viewKey(v.schema, v.name)),
    );
    let skipped = plan.skipped.length;
    if (o.load_type === 'INCREMENTAL') {
      const have = await this.destViews(schema);
      skipped += views.filter((v) => have.has(v.name.toLowerCase())).length;
      views = views.filter((v) => !have.has(v.name.toLowerCase()));
    }
    const { order, cycles } = orderViews(views, o.source_catalog);
    const byKey = new Map(views.map((v) => [viewKey(v.schema, v.name), v]));
    const out: ViewOutcome = { cloned: 0, failed: [], skipped, bytesCopied: 0, filesCopied: 0, warnings: this.w.list };
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
    return { ...out, bytesCopied: this.bytes, filesCopied: this.files };
  }

  private async create(view: ViewInfo, visiting: Set<string>): Promise<void> {
    const key = viewKey(view.schema, view.name);
    if (this.created.has(key)) return;
    visiting.add(key);
    await this.createDependencies(view, visiting);
    const o = this.ctx.options;
    const ref = { catalog: this.ctx.target.destinationCatalog, schema: view.schema, name: view.name };
    if (this.pulled.has(key))
      await this.dst.createSchema({ catalog: ref.catalog, name: view.schema, ifNotExists: true });
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

  /**
   * What this view reads that is not there yet: views of other schemas the destination lacks, and with
   * include_dependencies the pulled-in views and tables.
   */
  private async createDependencies(view: ViewInfo, visiting: Set<string>): Promise<void> {
    const catalog = this.ctx.options.source_catalog.toLowerCase();
    for (const ref of objectReferences(view.definition)) {
      if (ref.isCall || (ref.catalog !== null && ref.catalog.toLowerCase() !== catalog)) continue;
      const schema = ref.schema ?? view.schema;
      const key = viewKey(schema, ref.name);
      if (visiting.has(key) || this.created.has(key)) continue;
      const pulled = this.pulled.get(key);
      if (pulled?.kind === 'table') {
        await this.copyPulledTable(pulled);
        continue;
      }
      if (!pulled && schema.toLowerCase() === view.schema.toLowerCase()) continue; // ordered by orderViews
      const dep = await this.listing.view(schema, ref.name);
      if (!dep || (!pulled && (await this.destViews(schema)).has(ref.name.toLowerCase()))) continue;
      await this.create(dep, visiting);
    }
  }

  /** A pulled-in table of another schema; those of the schema being cloned were copied with its tables. */
  private async copyPulledTable(p: PulledIn): Promise<void> {
    this.created.add(p.key);
    if (p.schema.toLowerCase() === this.ownSchema) return;
    await this.dst.createSchema({ catalog: this.ctx.target.destinationCatalog, name: p.schema, ifNotExists: true });
    const t = await transferTable(this.src, this.dst, this.ctx, p.schema, p.name, this.beforeTableTouched);
    this.bytes += t.bytesCopied;
    this.files += t.filesCopied;
    this.w.list.push(...t.warnings);
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
