import {
  definitionEdges,
  edgesAround,
  fqnKey,
  reachable,
  referencedObjects,
  riskLevel,
} from '../../activities/analysis/logic/lineage';
import { orderViews } from '../../activities/clone/logic/view-order';
import type { LineageEdge } from '../../schemas/analysis-lineage';
import { cloneEdges, referencingJobs } from '../../store/analysis/lineage';
import type { Db } from '../../store/db';
import type { CatalogReader } from './reader';
import { tableLineageSql } from './system-sql';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The catalog's tables, views and functions (three-part keys) with their definitions. */
async function definitions(r: CatalogReader, catalog: string) {
  const schemas = await r.schemaNames(catalog);
  const per = await Promise.all(
    schemas.map(async (s) => ({
      tables: await r.tables(catalog, s),
      views: await r.views(catalog, s),
      functions: await r.functions(catalog, s),
    })),
  );
  const tables = per.flatMap((p) => p.tables.filter((t) => t.tableType !== 'VIEW'));
  const views = per.flatMap((p) => p.views);
  const functions = per.flatMap((p) => p.functions);
  return {
    catalog,
    tables: tables.map((t) => fqnKey(catalog, t.schema, t.name)),
    relations: [...tables, ...views].map((o) => fqnKey(catalog, o.schema, o.name)),
    views,
    functions,
  };
}

/** Databricks' own table lineage; the local lakehouse has none (said so, not an error). */
async function systemEdges(r: CatalogReader, catalog: string) {
  if (r.ws.kind !== 'databricks')
    return { edges: [], status: { available: false, error: 'the local lakehouse has no system lineage tables' } };
  try {
    const { rows } = await r.ws.query(tableLineageSql(catalog));
    const edges: LineageEdge[] = rows.map((row) => ({
      source: String(row.source),
      target: String(row.target),
      kind: 'system',
      job_id: null,
      at: row.last_seen === null || row.last_seen === undefined ? null : String(row.last_seen),
    }));
    return { edges, status: { available: true, error: null } };
  } catch (err) {
    return { edges: [], status: { available: false, error: message(err) } };
  }
}

/** Every edge touching the catalog: view and function definitions, recorded clones and system lineage. */
export async function catalogLineage(r: CatalogReader, db: Db, catalog: string) {
  const defs = await definitions(r, catalog);
  const clones: LineageEdge[] = (await cloneEdges(db, catalog)).map((c) => ({
    source: fqnKey(c.sourceCatalog, c.schemaName, c.tableName),
    target: fqnKey(c.destCatalog, c.schemaName, c.tableName),
    kind: 'clone',
    job_id: c.jobId,
    at: c.clonedAt.toISOString(),
  }));
  const system = await systemEdges(r, catalog);
  return { defs, edges: [...definitionEdges(defs), ...clones, ...system.edges], system: system.status };
}

export async function lineage(r: CatalogReader, db: Db, catalog: string, table?: string) {
  const { edges, system } = await catalogLineage(r, db, catalog);
  if (table === undefined) return { catalog, table: null, edges, upstream: [], downstream: [], system_lineage: system };
  const key = table.split('.').length === 3 ? table.toLowerCase() : `${catalog}.${table}`.toLowerCase();
  return {
    catalog,
    table: key,
    edges: edgesAround(edges, key),
    upstream: reachable(edges, [key], 'up'),
    downstream: reachable(edges, [key], 'down'),
    system_lineage: system,
  };
}

/** What depends on a table, a schema's objects or a whole catalog, and how risky a change is. */
export async function impact(r: CatalogReader, db: Db, q: { catalog: string; schema?: string; table?: string }) {
  const { defs, edges } = await catalogLineage(r, db, q.catalog);
  const prefix = q.schema === undefined ? `${q.catalog}.`.toLowerCase() : `${q.catalog}.${q.schema}.`.toLowerCase();
  const all = [...defs.relations, ...defs.functions.map((f) => fqnKey(q.catalog, f.schema, f.name))];
  const start =
    q.table !== undefined ? [fqnKey(q.catalog, q.schema!, q.table)] : all.filter((k) => k.startsWith(prefix));
  const down = reachable(edges, start, 'down');
  const views = new Set(defs.views.map((v) => fqnKey(q.catalog, v.schema, v.name)));
  const functions = new Set(defs.functions.map((f) => fqnKey(q.catalog, f.schema, f.name)));
  const jobs = await referencingJobs(db, q.catalog, q.schema, q.table);
  const total = down.length + jobs.length;
  const active = jobs.filter((j) => ['queued', 'running', 'cancelling'].includes(j.status)).length;
  const risk = riskLevel(total, active);
  return {
    catalog: q.catalog,
    schema: q.schema ?? null,
    table: q.table ?? null,
    downstream_tables: down.filter((k) => !views.has(k) && !functions.has(k)),
    downstream_views: down.filter((k) => views.has(k)),
    downstream_functions: down.filter((k) => functions.has(k)),
    referencing_jobs: jobs,
    total_affected: total,
    risk_level: risk.level,
    risk_reason: risk.reason,
  };
}

/** `schema.name` for objects of `catalog`, the full name otherwise. */
const short = (catalog: string, key: string) =>
  key.startsWith(`${catalog.toLowerCase()}.`) ? key.slice(catalog.length + 1) : key;

export async function viewDependencies(r: CatalogReader, catalog: string, schema: string) {
  const defs = await definitions(r, catalog);
  const known = new Set(defs.relations);
  const mine = defs.views.filter((v) => v.schema.toLowerCase() === schema.toLowerCase());
  const { cycles } = orderViews(mine, catalog);
  return {
    catalog,
    schema,
    dependencies: mine.map((v) => ({
      view: short(catalog, fqnKey(catalog, v.schema, v.name)),
      depends_on: referencedObjects(v.definition, { catalog, schema: v.schema }, known)
        .filter((k) => k !== fqnKey(catalog, v.schema, v.name))
        .map((k) => short(catalog, k)),
    })),
    cycles,
  };
}

export async function functionDependencies(r: CatalogReader, catalog: string, schema: string) {
  const defs = await definitions(r, catalog);
  const edges = definitionEdges(defs).filter((e) => e.kind === 'function');
  const mine = defs.functions.filter((f) => f.schema.toLowerCase() === schema.toLowerCase());
  return {
    catalog,
    schema,
    dependencies: mine.map((f) => {
      const key = fqnKey(catalog, f.schema, f.name);
      return {
        function: short(catalog, key),
        depends_on: edges.filter((e) => e.target === key).map((e) => short(catalog, e.source)),
      };
    }),
  };
}

/** The clone engine's own view order for the schema (one implementation); cycles are reported, not ordered. */
export async function creationOrder(r: CatalogReader, catalog: string, schema: string) {
  const views = (await r.views(catalog, schema)).filter((v) => v.schema.toLowerCase() === schema.toLowerCase());
  const { order, cycles } = orderViews(views, catalog);
  return { catalog, schema, creation_order: order, cycles };
}
