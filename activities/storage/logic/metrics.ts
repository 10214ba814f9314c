import type { TableStorageMetrics } from '../../../platform/types';
import type { StorageMetricsResult, TableStorage } from '../../../schemas/storage';

/** Human size, base 1024: B, KB and MB with one decimal, GB and TB with two. */
export function formatBytes(bytes: number): string {
  const units: [string, number, number][] = [
    ['TB', 1024 ** 4, 2],
    ['GB', 1024 ** 3, 2],
    ['MB', 1024 ** 2, 1],
    ['KB', 1024, 1],
  ];
  for (const [unit, size, digits] of units) if (bytes >= size) return `${(bytes / size).toFixed(digits)} ${unit}`;
  return `${bytes} B`;
}

/** part of total in percent, one decimal; 0 when total is 0. */
export function pct(part: number, total: number): number {
  return total === 0 ? 0 : Math.round((part / total) * 1000) / 10;
}

interface Sums {
  total: number;
  active: number;
  vacuumable: number;
  timeTravel: number;
  files: number;
}

function bytesView(s: Sums) {
  return {
    total_bytes: s.total,
    total_display: formatBytes(s.total),
    active_bytes: s.active,
    active_display: formatBytes(s.active),
    active_pct: pct(s.active, s.total),
    vacuumable_bytes: s.vacuumable,
    vacuumable_display: formatBytes(s.vacuumable),
    vacuumable_pct: pct(s.vacuumable, s.total),
    time_travel_bytes: s.timeTravel,
    time_travel_display: formatBytes(s.timeTravel),
    time_travel_pct: pct(s.timeTravel, s.total),
    num_total_files: s.files,
  };
}

export interface TableMeasure {
  schema: string;
  table: string;
  format: string | null;
  metrics: TableStorageMetrics | null;
  error: string | null;
}

/** One table's row: figures the platform could not give are 0 with `exact: false` and its note. */
export function tableRow(catalog: string, m: TableMeasure): TableStorage {
  const x = m.metrics;
  const sums: Sums = {
    total: x?.totalBytes ?? 0,
    active: x?.activeBytes ?? 0,
    vacuumable: x?.vacuumableBytes ?? 0,
    timeTravel: x?.timeTravelBytes ?? 0,
    files: x?.numTotalFiles ?? 0,
  };
  return {
    schema_name: m.schema,
    table_name: m.table,
    fqn: `${catalog}.${m.schema}.${m.table}`,
    format: m.format,
    ...bytesView(sums),
    num_active_files: x?.numActiveFiles ?? 0,
    num_vacuumable_files: x?.numVacuumableFiles ?? null,
    num_time_travel_files: x?.numTimeTravelFiles ?? null,
    retention_hours: x?.retentionHours ?? null,
    exact: x?.exact ?? false,
    note: x?.note ?? null,
    error: m.error,
  };
}

function sumRows(rows: TableStorage[]): Sums {
  return rows.reduce<Sums>(
    (a, r) => ({
      total: a.total + r.total_bytes,
      active: a.active + r.active_bytes,
      vacuumable: a.vacuumable + r.vacuumable_bytes,
      timeTravel: a.timeTravel + r.time_travel_bytes,
      files: a.files + r.num_total_files,
    }),
    { total: 0, active: 0, vacuumable: 0, timeTravel: 0, files: 0 },
  );
}

const TOP = 10;

/**
 * The catalog's Storage metrics result from its tables' measures: per-table rows (schema, table order), schema
 * and catalog sums, and the ten tables with the most vacuumable and the most total bytes (those above 0).
 */
export function storageSummary(catalog: string, measures: TableMeasure[]): StorageMetricsResult {
  const tables = measures
    .map((m) => tableRow(catalog, m))
    .sort((a, b) => a.schema_name.localeCompare(b.schema_name) || a.table_name.localeCompare(b.table_name));
  const schemas = [...new Set(tables.map((t) => t.schema_name))];
  const notes = [...new Set(tables.flatMap((t) => (t.note ? [t.note] : [])))];
  const failed = tables.filter((t) => t.error);
  if (failed.length)
    notes.push(`${failed.length} table(s) could not be measured: ${failed.map((t) => t.fqn).join(', ')}`);
  const byDesc = (key: 'vacuumable_bytes' | 'total_bytes') =>
    tables
      .filter((t) => t[key] > 0)
      .sort((a, b) => b[key] - a[key] || a.fqn.localeCompare(b.fqn))
      .slice(0, TOP);
  return {
    catalog,
    num_schemas: schemas.length,
    num_tables: tables.length,
    ...bytesView(sumRows(tables)),
    exact: tables.every((t) => t.exact && !t.error),
    notes,
    tables,
    schema_summaries: schemas.map((s) => {
      const rows = tables.filter((t) => t.schema_name === s);
      return { schema_name: s, num_tables: rows.length, ...bytesView(sumRows(rows)) };
    }),
    top_tables_by_vacuumable: byDesc('vacuumable_bytes'),
    top_tables_by_total: byDesc('total_bytes'),
  };
}

/** A `*` glob (case-insensitive) as a predicate; no filter matches everything. */
export function nameMatcher(glob: string | undefined): (name: string) => boolean {
  if (!glob) return () => true;
  const re = new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\-]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
  return (name) => re.test(name);
}
