import { NotFoundError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { TableInfo } from '../../platform/types';
import type { Db } from '../../store/db';
import { tableStatesForSchema } from '../../store/clone/clone-state';
import type { PlanCursor, TablePlanEntry, TargetContext } from '../../workflows/clone/engine-types';
import { nameSelected, orderBySize, selectionFor } from './selection';
import { workspaceKey } from './workspace-cache';

export interface TableSkip {
  name: string;
  reason: string;
}

export interface SchemaTables {
  tables: TablePlanEntry[];
  skips: TableSkip[];
  /** With `page`: the selected tables of the whole schema, and where the next page starts (null: none). */
  listed?: number;
  next?: PlanCursor | null;
}

/**
 * A page of a schema's plan: the next `limit` selected tables after `after` in plan order (by name, or by size
 * then name with order_by_size), so a schema of any size is planned a workflow run at a time.
 */
export interface PlanPage {
  limit: number;
  after?: PlanCursor;
}

/** Names of tables in a destination schema; an absent schema has none. */
async function destinationTables(dst: Workspace, catalog: string, schema: string): Promise<Set<string>> {
  try {
    return new Set((await dst.listTables(catalog, schema)).map((t) => t.name.toLowerCase()));
  } catch (err) {
    if (err instanceof NotFoundError) return new Set();
    throw err;
  }
}

/**
 * The tables of one schema this job copies, in order, and the ones load_type leaves alone. Read-only:
 * shared by the real run and the dry run. `pulledIn` (lower-case names) are tables the filters leave out
 * that include_dependencies brings in because a cloned view of this schema reads them.
 * - INCREMENTAL skips tables already present in the destination.
 * - SELECTIVE re-clones a table only when the source version recorded at its last clone into this
 *   destination differs from the source's current version (or nothing was recorded, or the destination
 *   table is gone).
 */
export async function planSchemaTables(
  db: Db,
  src: Workspace,
  dst: Workspace,
  ctx: TargetContext,
  schema: string,
  onProgress: () => void = () => undefined,
  pulledIn: ReadonlySet<string> = new Set(),
  page?: PlanPage,
): Promise<SchemaTables> {
  const o = ctx.options;
  const sel = selectionFor(o);
  const listed = (await src.listTables(o.source_catalog, schema)).filter(
    (t: TableInfo) =>
      (t.tableType === 'MANAGED' || t.tableType === 'EXTERNAL') &&
      (nameSelected(t.name, sel) || pulledIn.has(t.name.toLowerCase())),
  );
  const all = orderBySize(listed, o.order_by_size);
  const start = page?.after ? all.findIndex((t) => afterCursor(t, page.after!, o.order_by_size)) : 0;
  const from = start < 0 ? all.length : start;
  const ordered = page ? all.slice(from, from + page.limit) : all;
  const skips: TableSkip[] = [];
  let keep = ordered;
  if (o.load_type === 'INCREMENTAL' || o.load_type === 'SELECTIVE') {
    const existing = await destinationTables(dst, ctx.target.destinationCatalog, schema);
    if (o.load_type === 'INCREMENTAL') {
      keep = ordered.filter((t) => !existing.has(t.name.toLowerCase()));
      for (const t of ordered)
        if (existing.has(t.name.toLowerCase()))
          skips.push({ name: t.name, reason: 'already in the destination (INCREMENTAL)' });
    } else {
      const states = await tableStatesForSchema(db, {
        destWorkspace: workspaceKey(ctx.target.workspace),
        destCatalog: ctx.target.destinationCatalog,
        schemaName: schema,
      });
      keep = [];
      for (const t of ordered) {
        onProgress();
        const state = states.get(t.name);
        const sameSource =
          state && state.sourceWorkspace === workspaceKey(ctx.source) && state.sourceCatalog === o.source_catalog;
        if (!sameSource || state.sourceVersion === null || !existing.has(t.name.toLowerCase())) {
          keep.push(t);
          continue;
        }
        const current = (await src.describeTable({ catalog: o.source_catalog, schema, name: t.name })).version;
        if (current === null || current !== state.sourceVersion) keep.push(t);
        else skips.push({ name: t.name, reason: `source unchanged since the last clone (version ${current})` });
      }
    }
  }
  const tables = keep.map((t) => ({ name: t.name, format: t.format, sizeBytes: t.sizeBytes }));
  if (!page) return { tables, skips };
  const last = ordered.at(-1);
  const more = from + ordered.length < all.length && last;
  return { tables, skips, listed: all.length, next: more ? { name: last.name, sizeBytes: last.sizeBytes } : null };
}

/** Whether `t` comes after `c` in plan order (orderBySize's: size, then name). */
function afterCursor(t: TableInfo, c: PlanCursor, order: 'asc' | 'desc' | undefined): boolean {
  if (order) {
    const d = (order === 'asc' ? 1 : -1) * ((t.sizeBytes ?? 0) - (c.sizeBytes ?? 0));
    if (d !== 0) return d > 0;
  }
  return t.name.localeCompare(c.name) > 0;
}
