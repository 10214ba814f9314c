import { InvalidInputError } from '../../platform/errors';
import { parseFqn } from '../../platform/identifiers';
import type { Workspace } from '../../platform/port';
import type { Store } from '../../store/db';
import {
  asInlineRule,
  getSuite,
  saveSuiteValidation,
  type DqInlineRuleRow,
  type DqSuiteRow,
} from '../../store/data-quality/ops';
import { isLogicalError } from '../clone/failures';
import { evaluateChecks } from './evaluate';
import { normalizeCheck, type CheckInput, type DqCheck } from './logic';
import { judgeCrossTableCheck, planCrossTableCheck, type CrossTableType } from './logic/cross-table';
import { gateCannotRun, gateVerdict, type GateResult } from './logic/gate';
import { resolveExistence, type ExpectationResult, type SuiteValidation } from './logic/gx';
import { inlineRuleCheck, violationPredicate, type InlineRule } from './logic/inline-rules';
import { tableSql } from './logic/sql-text';
import { runTableChecks } from './run-table';

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function columnsOf(ws: Workspace, fqn: string) {
  return (await ws.describeTable(parseFqn(fqn))).columns.map((c) => ({ name: c.name, type: c.type }));
}

// ---- quality gate ----

export interface GateRequest {
  gateId: string;
  table_fqn?: string | null;
  suite_id?: string | null;
  min_pass_rate: number;
  executedBy: string;
}

/**
 * The quality gate: the table's enabled checks (a dq run recorded under the gate id) or a suite's validation,
 * against min_pass_rate. A gate that cannot run (nothing to check, no such table or suite, a query error) fails
 * closed with the reason; a transient platform error is thrown (the activity retries it).
 */
export async function evaluateGate(ws: Workspace, store: Store, req: GateRequest): Promise<GateResult> {
  const target = { table_fqn: req.suite_id ? null : (req.table_fqn ?? null), suite_id: req.suite_id ?? null };
  const min = req.min_pass_rate;
  if (req.suite_id) {
    const suite = await getSuite(store.db, req.suite_id);
    if (!suite) return gateCannotRun(target, min, `no expectation suite ${req.suite_id}`);
    const v = await validateSuite(ws, store, suite).catch((err: unknown) => {
      if (isLogicalError(err)) return errorText(err);
      throw err;
    });
    if (typeof v === 'string') return gateCannotRun(target, min, `suite ${suite.name}: ${v}`);
    const errored = v.results.filter((r) => r.error);
    if (v.results.length === 0) return gateCannotRun(target, min, `suite ${suite.name} has no expectations`);
    if (errored.length)
      return gateCannotRun(
        target,
        min,
        `suite ${suite.name}: ${errored[0].expectation_type}: ${errored[0].error}`,
        v.results.length,
      );
    return gateVerdict(target, min, {
      pass_rate: v.pass_rate,
      total_rows: v.total_rows,
      invalid_rows: v.invalid_rows,
      checks_applied: v.results.length,
    });
  }
  if (!req.table_fqn) return gateCannotRun(target, min, 'no table_fqn or suite_id configured');
  const outcome = await runTableChecks(ws, store, {
    jobId: req.gateId,
    runId: req.gateId,
    tableFqn: req.table_fqn,
    executedBy: req.executedBy,
  });
  if (outcome.status !== 'completed')
    return gateCannotRun(target, min, outcome.error ?? 'the run failed', outcome.checks_applied);
  return gateVerdict(target, min, outcome);
}

// ---- expectation suites ----

interface StoredExpectation {
  expectation_type: string;
  kwargs: Record<string, unknown>;
  checks: CheckInput[];
}

/**
 * Validates a suite through the engine (one evaluation of all its checks on its table) and keeps the result as
 * the suite's last validation. An expectation whose check does not fit the table (a missing column) is reported
 * as an error and not run.
 */
export async function validateSuite(
  ws: Workspace,
  store: Store,
  suite: DqSuiteRow,
  now = new Date(),
): Promise<SuiteValidation> {
  const columns = await columnsOf(ws, suite.tableFqn);
  const expectations = suite.expectations as unknown as StoredExpectation[];
  const checks: DqCheck[] = [];
  const owners: { ids: string[]; error: string | null }[] = [];
  expectations.forEach((e, i) => {
    const ids: string[] = [];
    let error: string | null = null;
    e.checks.forEach((input, j) => {
      const id = `e${i}_${j}`;
      const r = normalizeCheck({ ...resolveExistence(input, columns), id, table_fqn: suite.tableFqn }, { columns });
      if (!r.ok) error = r.issues.map((x) => `${x.path}: ${x.message}`).join('; ');
      else {
        checks.push(...r.check.map((c) => ({ ...c, id })));
        ids.push(id);
      }
    });
    owners.push({ ids, error });
  });
  const ev = checks.length
    ? await evaluateChecks(ws, suite.tableFqn, checks, { columns })
    : { summary: { total_rows: 0, invalid_rows: 0, pass_rate: 100 }, failures: new Map<string, number>() };
  const total = ev.summary.total_rows;
  const results: ExpectationResult[] = expectations.map((e, i) => {
    const o = owners[i];
    const unexpected = o.error ? 0 : o.ids.reduce((s, id) => s + (ev.failures.get(id) ?? 0), 0);
    return {
      expectation_type: e.expectation_type,
      kwargs: e.kwargs,
      success: !o.error && unexpected === 0,
      unexpected_count: unexpected,
      element_count: total,
      unexpected_percent: total ? Math.round((Math.min(unexpected, total) / total) * 10_000) / 100 : 0,
      error: o.error,
    };
  });
  const ok = results.filter((r) => r.success).length;
  const validation: SuiteValidation = {
    suite_name: suite.name,
    table_fqn: suite.tableFqn,
    success: ok === results.length,
    run_time: now.toISOString(),
    statistics: {
      evaluated_expectations: results.length,
      successful_expectations: ok,
      unsuccessful_expectations: results.length - ok,
      success_percent: results.length ? Math.round((ok / results.length) * 10_000) / 100 : 100,
    },
    total_rows: total,
    invalid_rows: ev.summary.invalid_rows,
    pass_rate: ev.summary.pass_rate,
    results,
  };
  await saveSuiteValidation(store.db, suite.suiteId, validation as unknown as Record<string, unknown>);
  return validation;
}

// ---- inline rules ----

export function ruleOf(row: DqInlineRuleRow): InlineRule {
  return asInlineRule(row) as InlineRule;
}

/** The rule's engine check on a table whose columns are known; throws (InvalidInput-like) when it no longer fits. */
export function ruleCheck(rule: InlineRule, columns: { name: string; type: string }[]): DqCheck {
  const r = inlineRuleCheck(rule, { columns });
  if (!r.ok)
    throw new InvalidInputError(
      `inline rule ${rule.name}: ${r.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    );
  return r.check;
}

export interface RuleTestResult {
  rule_id: string;
  table_fqn: string;
  sample_rows: number;
  violations: number;
  passed: boolean;
  action: string;
  samples: Record<string, unknown>[];
}

const plainRow = (r: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]));

/** Runs a rule on at most `limit` rows of its table (the engine's scan of a bounded sample), with up to 10 violating rows. */
export async function testRule(ws: Workspace, rule: InlineRule, limit = 1000): Promise<RuleTestResult> {
  const columns = await columnsOf(ws, rule.table_fqn);
  const check = ruleCheck(rule, columns);
  const ev = await evaluateChecks(ws, rule.table_fqn, [check], { sampleRows: limit, columns });
  const violations = ev.failures.get(check.id ?? check.name) ?? 0;
  const relation = `(SELECT * FROM ${tableSql(rule.table_fqn)} LIMIT ${limit})`;
  const samples = violations
    ? (
        await ws.query(
          `SELECT * FROM ${relation} AS _lw_sample WHERE ${violationPredicate(check, { columns }, relation)} LIMIT 10`,
        )
      ).rows
    : [];
  return {
    rule_id: rule.id ?? '',
    table_fqn: rule.table_fqn,
    sample_rows: ev.summary.total_rows,
    violations,
    passed: violations === 0,
    action: rule.action,
    samples: samples.map(plainRow),
  };
}

/** Violating rows of a rule on a table (the whole table, through the engine). */
export async function ruleViolations(ws: Workspace, rule: InlineRule, tableFqn: string): Promise<number> {
  const columns = await columnsOf(ws, tableFqn);
  const check = ruleCheck({ ...rule, table_fqn: tableFqn }, columns);
  const ev = await evaluateChecks(ws, tableFqn, [check], { columns });
  return ev.failures.get(check.id ?? check.name) ?? 0;
}

// ---- cross-table checks ----

export interface CrossTableResult {
  check_type: CrossTableType;
  passed: boolean;
  execution_time_ms: number;
  details: Record<string, unknown>;
}

/** Runs a cross-table check; a logical platform error (missing table, bad SQL) answers passed false with the error. */
export async function runCrossTableCheck(
  ws: Workspace,
  req: { check_type: CrossTableType; params: Record<string, unknown> },
  now: () => number = Date.now,
): Promise<CrossTableResult> {
  const started = now();
  const plan = planCrossTableCheck(req.check_type, req.params);
  try {
    const results: Record<string, Record<string, unknown>[]> = {};
    for (const [name, sql] of Object.entries(plan.queries)) results[name] = (await ws.query(sql)).rows;
    const { passed, details } = judgeCrossTableCheck(plan, results);
    return { check_type: req.check_type, passed, execution_time_ms: now() - started, details };
  } catch (err) {
    if (!isLogicalError(err)) throw err;
    return {
      check_type: req.check_type,
      passed: false,
      execution_time_ms: now() - started,
      details: { error: errorText(err) },
    };
  }
}
