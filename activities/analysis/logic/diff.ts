import type {
  ColumnChange,
  MonitorTable,
  ObjectDiff,
  PropertyDifference,
  SchemaChange,
} from '../../../schemas/analysis';

/** What one side of a diff holds: `schema.name` keys (lower case) per kind, and each table's columns. Pure. */
export interface CatalogInventory {
  schemas: string[];
  tables: Record<string, { name: string; type: string }[]>;
  views: string[];
  functions: string[];
  volumes: string[];
}

const sorted = (xs: Iterable<string>) => [...xs].sort();

export function diffNames(source: string[], dest: string[]): ObjectDiff {
  const s = new Set(source);
  const d = new Set(dest);
  return {
    only_in_source: sorted(source.filter((x) => !d.has(x))),
    only_in_dest: sorted(dest.filter((x) => !s.has(x))),
    in_both: source.filter((x) => d.has(x)).length,
    source_count: s.size,
    dest_count: d.size,
  };
}

/** Columns added (only in the destination), removed (only in the source) or of another type; by name, any case. */
export function diffColumns(
  source: { name: string; type: string }[],
  dest: { name: string; type: string }[],
): ColumnChange[] {
  const byName = (cs: { name: string; type: string }[]) => new Map(cs.map((c) => [c.name.toLowerCase(), c]));
  const s = byName(source);
  const d = byName(dest);
  const out: ColumnChange[] = [];
  for (const [k, c] of s) {
    const other = d.get(k);
    if (!other) out.push({ column: c.name, change: 'removed', source_type: c.type, dest_type: null });
    else if (other.type.toLowerCase() !== c.type.toLowerCase())
      out.push({ column: c.name, change: 'type_changed', source_type: c.type, dest_type: other.type });
  }
  for (const [k, c] of d)
    if (!s.has(k)) out.push({ column: c.name, change: 'added', source_type: null, dest_type: c.type });
  return out;
}

export interface InventoryDiff {
  schemas: ObjectDiff;
  tables: ObjectDiff;
  views: ObjectDiff;
  functions: ObjectDiff;
  volumes: ObjectDiff;
  schema_changes: SchemaChange[];
  in_sync: boolean;
}

export function diffInventories(source: CatalogInventory, dest: CatalogInventory): InventoryDiff {
  const tables = diffNames(Object.keys(source.tables), Object.keys(dest.tables));
  const schema_changes: SchemaChange[] = [];
  for (const key of sorted(Object.keys(source.tables))) {
    const other = dest.tables[key];
    if (!other) continue;
    const changes = diffColumns(source.tables[key], other);
    if (changes.length > 0) schema_changes.push({ table: key, changes });
  }
  const out = {
    schemas: diffNames(source.schemas, dest.schemas),
    tables,
    views: diffNames(source.views, dest.views),
    functions: diffNames(source.functions, dest.functions),
    volumes: diffNames(source.volumes, dest.volumes),
    schema_changes,
  };
  const kinds = [out.schemas, out.tables, out.views, out.functions, out.volumes];
  const in_sync =
    schema_changes.length === 0 && kinds.every((k) => k.only_in_source.length === 0 && k.only_in_dest.length === 0);
  return { ...out, in_sync };
}

/**
 * Table properties that differ, ignoring the engine's own `delta.*` properties (protocol, feature flags,
 * statistics settings) and the clone's provenance marks: a fresh DEEP clone legitimately differs in them.
 */
export function diffProperties(
  source: Record<string, string>,
  dest: Record<string, string>,
  ignore: (key: string) => boolean = isEngineProperty,
): PropertyDifference[] {
  const keys = new Set([...Object.keys(source), ...Object.keys(dest)]);
  const out: PropertyDifference[] = [];
  for (const key of sorted(keys)) {
    if (ignore(key)) continue;
    const a = source[key] ?? null;
    const b = dest[key] ?? null;
    if (a !== b) out.push({ key, source: a, dest: b });
  }
  return out;
}

export const isEngineProperty = (key: string): boolean => key.toLowerCase().startsWith('delta.');

/** One verdict per table for `/api/monitor`: missing or extra first, then schema drift, then count drift. */
export function monitorVerdicts(args: {
  diff: InventoryDiff;
  /** Tables present on both sides. */
  both: string[];
  counts: Map<string, { source: number | null; dest: number | null }> | null;
  checkDrift: boolean;
}): MonitorTable[] {
  const { diff, both, counts, checkDrift } = args;
  const drift = new Map(diff.schema_changes.map((c) => [c.table, c.changes]));
  const out: MonitorTable[] = [];
  const row = (table: string, verdict: MonitorTable['verdict'], changes: ColumnChange[] = []): MonitorTable => ({
    table,
    verdict,
    column_changes: changes,
    source_rows: counts?.get(table)?.source ?? null,
    dest_rows: counts?.get(table)?.dest ?? null,
  });
  for (const t of diff.tables.only_in_source) out.push(row(t, 'missing_in_destination'));
  for (const t of diff.tables.only_in_dest) out.push(row(t, 'extra_in_destination'));
  for (const t of sorted(both)) {
    const changes = checkDrift ? (drift.get(t) ?? []) : [];
    const c = counts?.get(t);
    if (changes.length > 0) out.push(row(t, 'schema_drift', changes));
    else if (c && c.source !== c.dest) out.push(row(t, 'count_drift'));
    else out.push(row(t, 'in_sync'));
  }
  return out.sort((a, b) => a.table.localeCompare(b.table));
}
