import { NotFoundError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { ViewInfo } from '../../platform/types';
import type { Db } from '../../store/db';
import type { TargetContext } from '../../workflows/clone/engine-types';
import { planSchemaTables } from './schema-plan';
import { nameSelected, selectionFor } from './selection';
import { lit, q, qRef } from './sql-text';
import { createCatalogText, createSchemaText, planTableCopy } from './table-plan';
import { orderViews, viewKey } from './logic/view-order';
import { rewriteCatalogRefs } from './logic/sql-identifiers';
import { dependencyWarnings, pulledTablesOf } from './logic/view-dependencies';
import { schemaViewDependencies, SourceListing } from './view-dependency-scan';

/**
 * The ordered plan of one target, read-only: the statements a real run executes (through the port),
 * in the order it executes them, with table copies pinned to the source versions read now.
 */
export async function dryRunPlan(
  db: Db,
  src: Workspace,
  dst: Workspace,
  ctx: TargetContext,
  schemas: string[],
): Promise<string[]> {
  const o = ctx.options;
  const D = ctx.target.destinationCatalog;
  const applyObjects = !ctx.crossWorkspace;
  const plan: string[] = [createCatalogText(D, o.location)];
  const sel = selectionFor(o);
  const listing = new SourceListing(src, o.source_catalog);
  for (const schema of schemas) {
    plan.push(createSchemaText(D, schema));
    if (applyObjects || o.clone_functions) {
      for (const fn of (await src.listFunctions(o.source_catalog, schema)).filter((f) => nameSelected(f.name, sel))) {
        plan.push(
          `CREATE OR REPLACE FUNCTION ${q(D)}.${q(schema)}.${q(fn.name)}(${fn.parameters}) RETURNS ${fn.returnType} RETURN ${rewriteCatalogRefs(fn.body, o.source_catalog, D)}`,
        );
      }
    }
    const viewDeps = await schemaViewDependencies(src, ctx, schema, listing);
    const pulledHere = pulledTablesOf(viewDeps, schema);
    const { tables, skips } = await planSchemaTables(db, src, dst, ctx, schema, undefined, pulledHere);
    for (const s of skips) plan.push(`-- skip ${q(D)}.${q(schema)}.${q(s.name)}: ${s.reason}`);
    // Views left out because they read what the filters leave out (or what include_dependencies pulls in).
    for (const w of dependencyWarnings(viewDeps, schema)) plan.push(`-- warning: ${w}`);
    for (const t of tables) plan.push(...(await tableCopyLines(src, ctx, schema, t.name)));
    if (applyObjects || o.clone_views) {
      const skipped = new Set(viewDeps.skipped.map((s) => s.key));
      const views = (await listing.views(schema)).filter(
        (v) => nameSelected(v.name, sel) && !skipped.has(viewKey(v.schema, v.name)),
      );
      const { order, cycles } = orderViews(views, o.source_catalog);
      const byKey = new Map(views.map((v) => [viewKey(v.schema, v.name), v]));
      // include_dependencies: what the views read from elsewhere comes first (this schema's tables are above).
      for (const p of viewDeps.pulledIn) {
        if (p.kind === 'table' && p.schema.toLowerCase() === schema.toLowerCase()) continue;
        if (p.schema.toLowerCase() !== schema.toLowerCase()) plan.push(createSchemaText(D, p.schema));
        if (p.kind === 'table') plan.push(...(await tableCopyLines(src, ctx, p.schema, p.name)));
        else plan.push(createViewText(D, (await listing.view(p.schema, p.name))!, o.source_catalog));
      }
      for (const key of order) plan.push(createViewText(D, byKey.get(key)!, o.source_catalog));
      for (const group of cycles) plan.push(`-- not created (dependency cycle): ${group.join(', ')}`);
    }
    if (applyObjects || o.clone_volumes) {
      for (const v of await src.listVolumes(o.source_catalog, schema)) {
        const files = dst.kind === 'local' ? await src.listVolumeFiles(v) : [];
        plan.push(
          `CREATE VOLUME IF NOT EXISTS ${q(D)}.${q(schema)}.${q(v.name)}${v.comment && o.copy_comments ? ` COMMENT ${lit(v.comment)}` : ''}`,
        );
        for (const f of files) plan.push(`-- copy file ${v.schema}/${v.name}/${f.path} (${f.size} bytes)`);
      }
    }
  }
  return plan;
}

/** One table's copy as the plan prints it: the copy statements, then its metadata, row filter and masks. */
async function tableCopyLines(src: Workspace, ctx: TargetContext, schema: string, name: string): Promise<string[]> {
  const o = ctx.options;
  const D = ctx.target.destinationCatalog;
  const from = { catalog: o.source_catalog, schema, name };
  const to = { catalog: D, schema, name };
  const desc = await src.describeTable(from);
  const p = planTableCopy({
    source: from,
    target: to,
    format: desc.format,
    options: o,
    crossWorkspace: ctx.crossWorkspace,
    currentVersion: desc.version,
    targetLabel: ctx.target.label,
  });
  const plan = [...p.warnings.map((w) => `-- warning: ${w}`), ...p.statements];
  const kinds = (['permissions', 'ownership', 'tags', 'properties', 'constraints', 'comments'] as const).filter(
    (k) => o[`copy_${k}`],
  );
  if (kinds.length > 0) plan.push(`-- copy ${kinds.join(', ')} of ${qRef(from)} to ${qRef(to)}`);
  if (o.copy_security) {
    const filter = await src.getRowFilter(from);
    if (filter)
      plan.push(
        `ALTER TABLE ${qRef(to)} SET ROW FILTER ${rewriteCatalogRefs(filter.functionName, o.source_catalog, D)} ON (${filter.columns.map(q).join(', ')})`,
      );
    for (const m of await src.getColumnMasks(from)) {
      const using = m.usingColumns.length > 0 ? ` USING COLUMNS (${m.usingColumns.map(q).join(', ')})` : '';
      plan.push(
        `ALTER TABLE ${qRef(to)} ALTER COLUMN ${q(m.column)} SET MASK ${rewriteCatalogRefs(m.functionName, o.source_catalog, D)}${using}`,
      );
    }
  }
  return plan;
}

const createViewText = (D: string, v: ViewInfo, sourceCatalog: string) =>
  `CREATE OR REPLACE VIEW ${q(D)}.${q(v.schema)}.${q(v.name)} AS ${rewriteCatalogRefs(v.definition, sourceCatalog, D)}`;

/** Source schema names; a missing source catalog fails the job (logical error, no retry). */
export async function sourceSchemaNames(src: Workspace, catalog: string): Promise<string[]> {
  await src.getCatalog(catalog);
  return (await src.listSchemas(catalog)).map((s) => s.name);
}

export async function catalogExists(ws: Workspace, name: string): Promise<boolean> {
  try {
    await ws.getCatalog(name);
    return true;
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
}
