import { parseFqn } from '../../platform/identifiers';
import type { Workspace } from '../../platform/port';
import {
  compileTableRun,
  referenceSchemaTables,
  summarizeRun,
  withReferenceSchemas,
  type DqCheck,
  type RunSummary,
} from './logic';
import { tableSql } from './logic/sql-text';

export interface Evaluation {
  table: { fqn: string; columns: { name: string; type: string }[] };
  summary: RunSummary;
  /** Failures per check, in the checks' order (keyed by id, or name without one). */
  failures: Map<string, number>;
  /** Failing-row samples (each row's columns plus the failed check names), when asked for. */
  samples: Record<string, unknown>[];
}

/**
 * Runs checks through the engine on a table: the compiled row scan (every row-level check in one pass), each
 * dataset-level query, and optionally a bounded samples query. `sampleRows` reads only that many rows of the
 * table (a rule's test). Platform errors are thrown as they are.
 */
export async function evaluateChecks(
  ws: Workspace,
  tableFqn: string,
  checks: DqCheck[],
  opts: { sampleRows?: number; samples?: number; columns?: { name: string; type: string }[] } = {},
): Promise<Evaluation> {
  const columns =
    opts.columns ?? (await ws.describeTable(parseFqn(tableFqn))).columns.map((c) => ({ name: c.name, type: c.type }));
  const table = { fqn: tableFqn, columns };
  const quoted = tableSql(tableFqn)!;
  const relation = opts.sampleRows ? `(SELECT * FROM ${quoted} LIMIT ${Math.floor(opts.sampleRows)})` : undefined;
  const refColumns: Record<string, { name: string; type: string }[]> = {};
  for (const ref of referenceSchemaTables(checks))
    refColumns[ref] = (await ws.describeTable(parseFqn(ref))).columns.map((c) => ({ name: c.name, type: c.type }));
  const compiled = compileTableRun(table, withReferenceSchemas(checks, refColumns), {
    sampleLimit: opts.samples ?? 10,
    relation,
  });
  const scanRow = compiled.rowScan ? ((await ws.query(compiled.rowScan.sql)).rows[0] ?? {}) : null;
  const datasetFailures = [];
  for (const q of compiled.datasetQueries) {
    const [r] = (await ws.query(q.sql)).rows;
    datasetFailures.push({ check: q.check, failures: Number(r?.failures ?? 0) });
  }
  const totalRows = compiled.rowScan
    ? undefined
    : Number((await ws.query(`SELECT count(*) AS n FROM ${relation ?? quoted}`)).rows[0]?.n ?? 0);
  const crit = new Map(checks.map((c) => [c.id ?? c.name, c.criticality]));
  const summary = summarizeRun(
    compiled,
    { rowScan: scanRow, datasetFailures, totalRows },
    (k) => crit.get(k) ?? 'error',
  );
  const rowFailures = compiled.rowScan ? summary.per_check.slice(0, compiled.rowScan.checkAliases.length) : [];
  const samples =
    opts.samples && compiled.samplesSql && rowFailures.some((p) => p.failures > 0)
      ? (await ws.query(compiled.samplesSql)).rows
      : [];
  return { table, summary, failures: new Map(summary.per_check.map((p) => [p.check, p.failures])), samples };
}
