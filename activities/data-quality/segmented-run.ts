import { InvalidInputError } from '../../platform/errors';
import { parseFqn } from '../../platform/identifiers';
import type { Workspace } from '../../platform/port';
import type { SegmentedResult } from '../../schemas/data-quality';
import type { Store } from '../../store/db';
import { asDqxCheck, enabledChecks } from '../../store/data-quality/checks';
import { saveSegments } from '../../store/data-quality/runs';
import { compileSegmentedScan, findCheckFunction } from './logic';

/** At most this many segments are reported one by one; the rest are summed as `other`. */
export const MAX_SEGMENTS = 100;
export const OTHER_SEGMENT = 'other';

export interface DqSegmentedRequest {
  runId: string;
  tableFqn: string;
  segmentColumn: string;
  checkIds?: string[];
}

/**
 * The engine's grouped scan (one row per segment value) folded in the same statement: the MAX_SEGMENTS
 * largest segments by row count stay, the others become one `other` row. One table scan in all.
 */
export function foldedSegmentsSql(groupedSql: string): string {
  const keep = `_lw_rn <= ${MAX_SEGMENTS}`;
  return (
    `SELECT CASE WHEN ${keep} THEN segment END AS segment, CASE WHEN ${keep} THEN 0 ELSE 1 END AS is_other, ` +
    `count(*) AS segments, sum(total) AS total, sum(error_rows) AS error_rows, sum(warn_rows) AS warn_rows ` +
    `FROM (SELECT g.*, row_number() OVER (ORDER BY total DESC, segment) AS _lw_rn FROM (${groupedSql}) AS g) AS r ` +
    `GROUP BY 1, 2`
  );
}

const rate = (valid: number, total: number) => (total === 0 ? 100 : Math.round((valid / total) * 10_000) / 100);

/** Per-segment totals and pass rates of a table's enabled row-level checks, stored in dqx_segment_results. */
export async function runSegmented(
  ws: Workspace,
  store: Store,
  req: DqSegmentedRequest,
  now: () => number = Date.now,
): Promise<SegmentedResult> {
  const started = now();
  const checks = (await enabledChecks(store.db, req.tableFqn, req.checkIds))
    .map(asDqxCheck)
    .filter((c) => findCheckFunction(c.check_function)?.level === 'row');
  if (checks.length === 0) throw new InvalidInputError(`no enabled row-level checks on ${req.tableFqn}`);
  const described = await ws.describeTable(parseFqn(req.tableFqn));
  const column = described.columns.find((c) => c.name.toLowerCase() === req.segmentColumn.toLowerCase());
  if (!column) throw new InvalidInputError(`segment_column: ${req.tableFqn} has no column ${req.segmentColumn}`);
  const table = { fqn: req.tableFqn, columns: described.columns.map((c) => ({ name: c.name, type: c.type })) };
  const grouped = compileSegmentedScan(table, checks, column.name, Number.MAX_SAFE_INTEGER - 1);
  const rows = (await ws.query(foldedSegmentsSql(grouped.sql))).rows;
  const results = rows
    .map((r) => {
      const total = Number(r.total ?? 0);
      const invalid = Number(r.error_rows ?? 0);
      const other = Number(r.is_other) === 1;
      return {
        segment_value: other ? OTHER_SEGMENT : r.segment === null || r.segment === undefined ? null : String(r.segment),
        segments: Number(r.segments),
        other,
        total_rows: total,
        valid_rows: total - invalid,
        invalid_rows: invalid,
        warning_rows: Number(r.warn_rows ?? 0),
        pass_rate: rate(total - invalid, total),
      };
    })
    .sort((a, b) => a.pass_rate - b.pass_rate || b.total_rows - a.total_rows);
  const otherRow = results.find((r) => r.other);
  const executedAt = new Date(now());
  const out = results.map(({ segment_value, total_rows, valid_rows, invalid_rows, warning_rows, pass_rate }) => ({
    segment_value,
    total_rows,
    valid_rows,
    invalid_rows,
    warning_rows,
    pass_rate,
  }));
  await saveSegments(
    store.db,
    req.runId,
    req.tableFqn,
    out.map((r) => ({
      segmentColumn: column.name,
      segmentValue: r.segment_value,
      totalRows: r.total_rows,
      validRows: r.valid_rows,
      invalidRows: r.invalid_rows,
      warningRows: r.warning_rows,
      passRate: r.pass_rate,
      checksApplied: checks.length,
      executedAt,
    })),
  );
  return {
    run_id: req.runId,
    table_fqn: req.tableFqn,
    segment_column: column.name,
    segments: results.reduce((s, r) => s + r.segments, 0),
    other_segments: otherRow?.segments ?? 0,
    results: out,
    checks_applied: checks.length,
    execution_time_ms: now() - started,
    status: 'completed',
  };
}
