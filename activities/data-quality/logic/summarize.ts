import type { CompiledRun } from './types';

/** What the queries of one run returned: the row scan's single row and each dataset query's failures. */
export interface RunCounts {
  rowScan: Record<string, unknown> | null;
  datasetFailures: { check: string; failures: number }[];
  /** The table's row count (needed when there is no row scan). */
  totalRows?: number;
}

export interface RunSummary {
  total_rows: number;
  valid_rows: number;
  invalid_rows: number;
  warning_rows: number;
  pass_rate: number;
  per_check: { check: string; failures: number }[];
}

const n = (v: unknown) => Number(v ?? 0);

/**
 * Row counts of a run. Only error-level failures make a row invalid; a row failing only warn checks is valid and
 * a warning row. Dataset-level failures count as invalid (error) or warning rows; a row that fails both a row
 * check and a dataset check is counted once per check kind, capped at the table's row count.
 */
export function summarizeRun(
  compiled: CompiledRun,
  counts: RunCounts,
  criticalityOf: (check: string) => 'error' | 'warn',
): RunSummary {
  const scan = compiled.rowScan;
  const row = counts.rowScan ?? {};
  const total = scan ? n(row[scan.totalAlias]) : n(counts.totalRows);
  let invalid = scan ? n(row[scan.errorAnyAlias]) : 0;
  let warning = scan ? n(row[scan.warnOnlyAlias]) : 0;
  for (const d of counts.datasetFailures) {
    if (criticalityOf(d.check) === 'error') invalid += d.failures;
    else warning += d.failures;
  }
  invalid = Math.min(invalid, total);
  warning = Math.min(warning, total - invalid);
  const per = scan ? scan.checkAliases.map((c) => ({ check: c.check, failures: n(row[c.alias]) })) : [];
  return {
    total_rows: total,
    valid_rows: total - invalid,
    invalid_rows: invalid,
    warning_rows: warning,
    pass_rate: total === 0 ? 100 : Math.round(((total - invalid) / total) * 10000) / 100,
    per_check: [...per, ...counts.datasetFailures.map((d) => ({ check: d.check, failures: d.failures }))],
  };
}
