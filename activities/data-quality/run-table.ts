import { parseFqn } from '../../platform/identifiers';
import type { Workspace } from '../../platform/port';
import type { Store } from '../../store/db';
import { asDqxCheck, enabledChecks } from '../../store/data-quality/checks';
import { MAX_FAILURE_SAMPLES, saveRunResult, type NewDqSample } from '../../store/data-quality/runs';
import { isLogicalError } from '../clone/failures';
import {
  compileTableRun,
  FAILED_CHECKS_COLUMN,
  findCheckFunction,
  referenceSchemaTables,
  summarizeRun,
  withReferenceSchemas,
  type DqCheck,
} from './logic';
import { tableSql } from './logic/sql-text';

export interface DqTableRequest {
  jobId: string;
  runId: string;
  tableFqn: string;
  checkIds?: string[];
  executedBy: string;
  /** Run on this local warehouse's pool (absent or `default`: the workspace's own engine). */
  warehouseId?: string;
}

/** What the workflow learns of one table's run (the full result, with per-check counts, is in the store). */
export interface DqTableOutcome {
  run_id: string;
  table_fqn: string;
  status: 'completed' | 'failed';
  error: string | null;
  total_rows: number;
  valid_rows: number;
  invalid_rows: number;
  warning_rows: number;
  pass_rate: number;
  checks_applied: number;
}

/**
 * The names in a sample's FAILED_CHECKS_COLUMN (joined with ", "), matched back to the checks: parts are
 * re-joined until they spell a check's name, so a name that itself holds ", " is still found.
 */
function failedNames(text: unknown, names: Set<string>): string[] {
  if (typeof text !== 'string' || text === '') return [];
  const out: string[] = [];
  let acc: string | null = null;
  for (const part of text.split(', ')) {
    acc = acc === null ? part : `${acc}, ${part}`;
    if (names.has(acc)) {
      out.push(acc);
      acc = null;
    }
  }
  return out;
}

/** Failing rows as stored samples: the table's columns, and the checks each row failed by criticality. */
function samplesOf(rows: Record<string, unknown>[], checks: DqCheck[]): NewDqSample[] {
  const byName = new Map(checks.map((c) => [c.name, c]));
  const names = new Set(byName.keys());
  return rows.slice(0, MAX_FAILURE_SAMPLES).map((row, i) => {
    const failed = { errors: [] as string[], warnings: [] as string[] };
    for (const name of failedNames(row[FAILED_CHECKS_COLUMN], names))
      (byName.get(name)?.criticality === 'warn' ? failed.warnings : failed.errors).push(name);
    const rowData = Object.fromEntries(
      Object.entries(row)
        .filter(([k]) => k !== FAILED_CHECKS_COLUMN)
        .map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]),
    );
    return { sampleIndex: i, rowData, failedChecks: failed };
  });
}

/**
 * Runs a table's enabled checks: the compiled row scan (every row-level check in one pass), each dataset-level
 * query, and, when rows failed, one bounded samples query. Stores the result and samples under the run id (a
 * retry replaces them). A logical failure (missing table, bad SQL) is stored and returned as a failed run;
 * a transient one is thrown for the activity to retry.
 */
export async function runTableChecks(
  ws: Workspace,
  store: Store,
  req: DqTableRequest,
  now: () => number = Date.now,
): Promise<DqTableOutcome> {
  const started = now();
  const rows = await enabledChecks(store.db, req.tableFqn, req.checkIds);
  const checks: DqCheck[] = rows.map(asDqxCheck);
  const base = { runId: req.runId, jobId: req.jobId, tableFqn: req.tableFqn, executedBy: req.executedBy };
  try {
    if (checks.length === 0) throw new NoChecksError(req.tableFqn);
    const described = await ws.describeTable(parseFqn(req.tableFqn));
    const table = { fqn: req.tableFqn, columns: described.columns.map((c) => ({ name: c.name, type: c.type })) };
    const refColumns: Record<string, { name: string; type: string }[]> = {};
    for (const ref of referenceSchemaTables(checks)) {
      refColumns[ref] = (await ws.describeTable(parseFqn(ref))).columns.map((c) => ({ name: c.name, type: c.type }));
    }
    const compiled = compileTableRun(table, withReferenceSchemas(checks, refColumns), {
      sampleLimit: MAX_FAILURE_SAMPLES,
    });
    const scanRow = compiled.rowScan ? ((await ws.query(compiled.rowScan.sql)).rows[0] ?? {}) : null;
    const datasetFailures = [];
    for (const q of compiled.datasetQueries) {
      const [r] = (await ws.query(q.sql)).rows;
      datasetFailures.push({ check: q.check, failures: Number(r?.failures ?? 0) });
    }
    const totalRows = compiled.rowScan
      ? undefined
      : Number((await ws.query(`SELECT count(*) AS n FROM ${tableSql(req.tableFqn)}`)).rows[0]?.n ?? 0);
    const crit = new Map(checks.map((c) => [c.id ?? c.name, c.criticality]));
    const summary = summarizeRun(
      compiled,
      { rowScan: scanRow, datasetFailures, totalRows },
      (k) => crit.get(k) ?? 'error',
    );
    const rowFailures = compiled.rowScan ? summary.per_check.slice(0, compiled.rowScan.checkAliases.length) : [];
    const samples =
      compiled.samplesSql && rowFailures.some((f) => f.failures > 0)
        ? samplesOf((await ws.query(compiled.samplesSql)).rows, checks)
        : [];
    const byKey = new Map(checks.map((c) => [c.id ?? c.name, c]));
    const checkResults = summary.per_check.map((p) => {
      const c = byKey.get(p.check);
      return {
        check_id: c?.id ?? p.check,
        name: c?.name ?? p.check,
        check_function: c?.check_function ?? '',
        criticality: c?.criticality ?? 'error',
        level: findCheckFunction(c?.check_function ?? '')?.level ?? 'row',
        failures: p.failures,
        failure_pct: summary.total_rows ? Math.round((p.failures / summary.total_rows) * 10_000) / 100 : 0,
      };
    });
    const outcome: DqTableOutcome = {
      run_id: req.runId,
      table_fqn: req.tableFqn,
      status: 'completed',
      error: null,
      total_rows: summary.total_rows,
      valid_rows: summary.valid_rows,
      invalid_rows: summary.invalid_rows,
      warning_rows: summary.warning_rows,
      pass_rate: summary.pass_rate,
      checks_applied: checks.length,
    };
    await saveRunResult(
      store.db,
      {
        ...base,
        totalRows: summary.total_rows,
        validRows: summary.valid_rows,
        invalidRows: summary.invalid_rows,
        errorRows: summary.invalid_rows,
        warningRows: summary.warning_rows,
        passRate: summary.pass_rate,
        checksApplied: checks.length,
        checkResults,
        executionTimeMs: now() - started,
        status: 'completed',
        error: null,
        executedAt: new Date(now()),
      },
      samples,
    );
    return outcome;
  } catch (err) {
    if (!(err instanceof NoChecksError) && !isLogicalError(err)) throw err;
    const error = `${req.tableFqn}: ${(err as Error).message}`;
    await saveRunResult(
      store.db,
      {
        ...base,
        totalRows: 0,
        validRows: 0,
        invalidRows: 0,
        errorRows: 0,
        warningRows: 0,
        passRate: 0,
        checksApplied: checks.length,
        checkResults: [],
        executionTimeMs: now() - started,
        status: 'failed',
        error,
        executedAt: new Date(now()),
      },
      [],
    );
    const zero = { total_rows: 0, valid_rows: 0, invalid_rows: 0, warning_rows: 0, pass_rate: 0 };
    return {
      run_id: req.runId,
      table_fqn: req.tableFqn,
      status: 'failed',
      error,
      ...zero,
      checks_applied: checks.length,
    };
  }
}

class NoChecksError extends Error {
  constructor(table: string) {
    super(`no enabled checks on ${table}`);
  }
}
