import { diffColumns, diffInventories, diffProperties, monitorVerdicts } from '../../activities/analysis/logic/diff';
import { validateTable } from '../../activities/clone/logic/table-compare';
import { summariseValidation } from '../../activities/clone/logic/validation';
import type { CatalogPair, CompareIssue, TableComparison } from '../../schemas/analysis';
import type { CatalogReader } from './reader';

const split = (key: string) => {
  const i = key.indexOf('.');
  return { schema: key.slice(0, i), name: key.slice(i + 1) };
};

/** Both catalogs' inventories (the source must exist: 404 naming source_catalog). */
async function inventories(r: CatalogReader, p: CatalogPair) {
  await r.hasCatalog(p.source_catalog, 'source_catalog');
  const [source, dest] = await Promise.all([
    r.inventory(p.source_catalog, p.exclude_schemas),
    r.inventory(p.destination_catalog, p.exclude_schemas),
  ]);
  return { source, dest, diff: diffInventories(source, dest) };
}

export async function diffCatalogs(r: CatalogReader, p: CatalogPair) {
  const { diff } = await inventories(r, p);
  return { source_catalog: p.source_catalog, destination_catalog: p.destination_catalog, ...diff };
}

/** Tables present on both sides, `schema.name` keys. */
const commonTables = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  Object.keys(a)
    .filter((k) => k in b)
    .sort();

/** Row counts (and checksums) per table on both sides: the clone's own post-clone validation, run alone. */
export async function validateCatalogs(r: CatalogReader, p: CatalogPair & { checksum: boolean }) {
  const { source, dest } = await inventories(r, p);
  const results = [];
  for (const key of commonTables(source.tables, dest.tables)) {
    const { schema, name } = split(key);
    results.push(
      await validateTable(
        r.ws,
        r.ws,
        { catalog: p.source_catalog, schema, name },
        { catalog: p.destination_catalog, schema, name },
        { checksum: p.checksum },
      ),
    );
  }
  const summary = summariseValidation(results);
  return { source_catalog: p.source_catalog, destination_catalog: p.destination_catalog, ...summary, tables: results };
}

/**
 * Per source table: missing in the destination, column drift, row counts (and checksum), and user properties
 * that differ (`delta.*` engine properties ignored).
 */
export async function compareCatalogs(r: CatalogReader, p: CatalogPair & { checksum: boolean }) {
  const { source, dest } = await inventories(r, p);
  const tables: TableComparison[] = [];
  for (const key of Object.keys(source.tables).sort()) {
    const { schema, name } = split(key);
    const base = {
      table: key,
      column_changes: [],
      property_differences: [],
      source_rows: null,
      dest_rows: null,
      checksum_match: null,
      error: null,
    };
    if (!dest.tables[key]) {
      tables.push({ ...base, issues: ['missing_in_destination'] });
      continue;
    }
    const issues: CompareIssue[] = [];
    const column_changes = diffColumns(source.tables[key], dest.tables[key]);
    if (column_changes.length) issues.push('schema_drift');
    const [sp, dp] = await Promise.all([
      r.properties(p.source_catalog, schema, name),
      r.properties(p.destination_catalog, schema, name),
    ]);
    const property_differences = diffProperties(sp, dp);
    if (property_differences.length) issues.push('properties_mismatch');
    const v = await validateTable(
      r.ws,
      r.ws,
      { catalog: p.source_catalog, schema, name },
      { catalog: p.destination_catalog, schema, name },
      { checksum: p.checksum && column_changes.length === 0 },
    );
    if (v.error) issues.push('compare_error');
    else if (!v.rows_match) issues.push('row_count_mismatch');
    else if (v.checksum_match === false) issues.push('checksum_mismatch');
    tables.push({
      ...base,
      issues,
      column_changes,
      property_differences,
      source_rows: v.source_rows,
      dest_rows: v.target_rows,
      checksum_match: v.checksum_match ?? null,
      error: v.error ?? null,
    });
  }
  const bad = tables.filter((t) => t.issues.length > 0);
  return {
    source_catalog: p.source_catalog,
    destination_catalog: p.destination_catalog,
    total_tables: tables.length,
    tables_ok: tables.length - bad.length,
    tables_with_issues: bad.length,
    issue_tables: bad.map((t) => t.table),
    tables,
  };
}

/** Schema drift and, when asked, count drift between a source and its clone, with a verdict per table. */
export async function monitorCatalogs(
  r: CatalogReader,
  p: CatalogPair & { check_drift: boolean; check_counts: boolean },
  now: Date,
) {
  const { source, dest, diff } = await inventories(r, p);
  const both = commonTables(source.tables, dest.tables);
  let counts: Map<string, { source: number | null; dest: number | null }> | null = null;
  if (p.check_counts) {
    counts = new Map();
    for (const key of both) {
      const { schema, name } = split(key);
      const v = await validateTable(
        r.ws,
        r.ws,
        { catalog: p.source_catalog, schema, name },
        { catalog: p.destination_catalog, schema, name },
        { checksum: false },
      );
      counts.set(key, { source: v.source_rows, dest: v.target_rows });
    }
  }
  const tables = monitorVerdicts({ diff, both, counts, checkDrift: p.check_drift });
  const kinds = [diff.schemas, diff.tables, diff.views, diff.functions, diff.volumes];
  const missing = kinds.reduce((s, k) => s + k.only_in_source.length, 0);
  const extra = kinds.reduce((s, k) => s + k.only_in_dest.length, 0);
  const schemaDrift = tables.filter((t) => t.verdict === 'schema_drift').length;
  const countDrift = tables.filter((t) => t.verdict === 'count_drift').length;
  return {
    source_catalog: p.source_catalog,
    destination_catalog: p.destination_catalog,
    in_sync: missing + extra + schemaDrift + countDrift === 0,
    checked_at: now.toISOString(),
    check_drift: p.check_drift,
    check_counts: p.check_counts,
    missing_objects: missing,
    extra_objects: extra,
    schema_drift: schemaDrift,
    count_drift: countDrift,
    tables,
  };
}
