import type { TableStats } from '../../../platform/types';

/** Symmetric drift in percent: |a−b| / max(a, b, 1) × 100 (0 when both are 0), rounded to 2 decimals. */
export function drift(a: number, b: number): number {
  if (a === b) return 0;
  return Math.round((Math.abs(a - b) / Math.max(a, b, 1)) * 100 * 100) / 100;
}

export interface DqComparison {
  schema: string;
  table: string;
  source_rows: number | null;
  target_rows: number | null;
  row_drift_pct: number;
  /** column → drift of its NULL count. */
  null_drift_pct: Record<string, number>;
  max_drift_pct: number;
  /** Set when a side could not be profiled or a column is missing: the table then fails the check. */
  error?: string;
}

/** Compares two profiles (row count and per-column NULL counts). Columns absent on the target are an error. */
export function compareStats(schema: string, table: string, src: TableStats, dst: TableStats): DqComparison {
  const null_drift_pct: Record<string, number> = {};
  const missing: string[] = [];
  for (const [column, n] of Object.entries(src.nullCounts)) {
    const m = dst.nullCounts[column];
    if (m === undefined) missing.push(column);
    else null_drift_pct[column] = drift(n, m);
  }
  const row_drift_pct = drift(src.rowCount, dst.rowCount);
  const max_drift_pct = Math.max(row_drift_pct, ...Object.values(null_drift_pct));
  const out: DqComparison = {
    schema,
    table,
    source_rows: src.rowCount,
    target_rows: dst.rowCount,
    row_drift_pct,
    null_drift_pct,
    max_drift_pct,
  };
  if (missing.length) out.error = `columns missing on the destination: ${missing.join(', ')}`;
  return out;
}

export interface DqVerdict {
  passed: boolean;
  tables_compared: number;
  max_drift_pct: number;
  threshold_pct: number;
  /** Tables over the threshold or whose comparison failed. */
  failed_tables: string[];
  errors: number;
}

/** A table fails when its drift is strictly above the threshold or its comparison failed (never a pass). */
export function evaluateDq(comparisons: DqComparison[], thresholdPct: number): DqVerdict {
  const failed = comparisons.filter((c) => c.error !== undefined || c.max_drift_pct > thresholdPct);
  return {
    passed: failed.length === 0,
    tables_compared: comparisons.length,
    max_drift_pct: Math.max(0, ...comparisons.map((c) => (c.error ? 100 : c.max_drift_pct))),
    threshold_pct: thresholdPct,
    failed_tables: failed.map((c) => `${c.schema}.${c.table}`),
    errors: comparisons.filter((c) => c.error !== undefined).length,
  };
}
