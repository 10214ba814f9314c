/** Row-count (and optional checksum) validation results and the auto-rollback decision. Pure. */
export interface TableValidation {
  schema: string;
  table: string;
  source_rows: number | null;
  target_rows: number | null;
  rows_match: boolean;
  /** Only when validate_checksum: equal order-independent checksums over all columns. */
  checksum_match?: boolean;
  match: boolean;
  error?: string;
}

export interface ValidationSummary {
  passed: boolean;
  matched: number;
  mismatched: number;
  errors: number;
  total_tables: number;
  /** (mismatched + errors) / total × 100, 2 decimals. */
  mismatch_pct: number;
  mismatched_tables: string[];
  checksum_mismatches: number;
}

export function summariseValidation(results: TableValidation[]): ValidationSummary {
  const errors = results.filter((r) => r.error !== undefined);
  const mismatched = results.filter((r) => r.error === undefined && !r.match);
  const total = results.length;
  const failed = errors.length + mismatched.length;
  return {
    passed: failed === 0,
    matched: results.filter((r) => r.error === undefined && r.match).length,
    mismatched: mismatched.length,
    errors: errors.length,
    total_tables: total,
    mismatch_pct: total === 0 ? 0 : Math.round((failed / total) * 10000) / 100,
    mismatched_tables: [...mismatched, ...errors].map((r) => `${r.schema}.${r.table}`),
    checksum_mismatches: results.filter((r) => r.checksum_match === false).length,
  };
}

export interface AutoRollbackDecision {
  triggered: boolean;
  reasons: string[];
  mismatch_pct: number;
  threshold_pct: number;
  dq_threshold_pct: number | null;
}

/**
 * Auto rollback when it is on (auto_rollback and enable_rollback) and either the mismatched share of
 * validated tables exceeds rollback_threshold, or a DQ comparison failed (drift above dq_drift_rollback_pct,
 * or a comparison that could not run).
 */
export function decideAutoRollback(args: {
  enabled: boolean;
  thresholdPct: number;
  validation?: ValidationSummary | null;
  dq?: { passed: boolean; failed_tables: string[]; threshold_pct: number; max_drift_pct: number } | null;
}): AutoRollbackDecision {
  const reasons: string[] = [];
  const v = args.validation;
  if (v && v.mismatch_pct > args.thresholdPct) {
    reasons.push(
      `${v.mismatched + v.errors} of ${v.total_tables} tables failed validation (${v.mismatch_pct}% > ${args.thresholdPct}%)`,
    );
  }
  if (args.dq && !args.dq.passed) {
    reasons.push(`dq drift > ${args.dq.threshold_pct}% or comparison failed: ${args.dq.failed_tables.join(', ')}`);
  }
  return {
    triggered: args.enabled && reasons.length > 0,
    reasons,
    mismatch_pct: Math.max(v?.mismatch_pct ?? 0, args.dq && !args.dq.passed ? args.dq.max_drift_pct : 0),
    threshold_pct: args.thresholdPct,
    dq_threshold_pct: args.dq?.threshold_pct ?? null,
  };
}
