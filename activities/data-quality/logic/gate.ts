/** The quality gate's verdict and reason texts (the spec's Errors row: pass rate, threshold and invalid rows). */

export interface GateResult {
  passed: boolean;
  pass_rate: number;
  min_pass_rate: number;
  total_rows: number;
  invalid_rows: number;
  checks_applied: number;
  reason: string;
  table_fqn: string | null;
  suite_id: string | null;
}

export function gateVerdict(
  target: { table_fqn: string | null; suite_id: string | null },
  minPassRate: number,
  run: { pass_rate: number; total_rows: number; invalid_rows: number; checks_applied: number },
): GateResult {
  const passed = run.pass_rate >= minPassRate;
  const counts = `(${run.invalid_rows} invalid rows out of ${run.total_rows})`;
  const reason = passed
    ? `DQ gate passed: pass rate ${run.pass_rate}% >= threshold ${minPassRate}% ${counts}`
    : `DQ gate failed: pass rate ${run.pass_rate}% < threshold ${minPassRate}% ${counts}`;
  return {
    ...target,
    passed,
    pass_rate: run.pass_rate,
    min_pass_rate: minPassRate,
    total_rows: run.total_rows,
    invalid_rows: run.invalid_rows,
    checks_applied: run.checks_applied,
    reason,
  };
}

/** A gate that cannot run fails closed, saying why. */
export function gateCannotRun(
  target: { table_fqn: string | null; suite_id: string | null },
  minPassRate: number,
  why: string,
  checksApplied = 0,
): GateResult {
  return {
    ...target,
    passed: false,
    pass_rate: 0,
    min_pass_rate: minPassRate,
    total_rows: 0,
    invalid_rows: 0,
    checks_applied: checksApplied,
    reason: `DQ gate failed closed: ${why}`,
  };
}
