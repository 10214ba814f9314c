import type { Workspace } from '../../../platform/port';
import type { TableRef, TimeTravel } from '../../../platform/types';
import { compareStats, type DqComparison } from './dq-drift';
import type { TableValidation } from './validation';

/**
 * Validation and DQ comparison of one table pair. Port-generic: it calls only the workspaces it is given (no
 * adapter, store or clock), so the clone's post-clone step and the API's `/api/validate` run the same code.
 */
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Row counts (and checksums) of a destination table against its source. The source is read at the version
 * that was cloned when known, so later source writes do not count as a mismatch.
 */
export async function validateTable(
  src: Workspace,
  dst: Workspace,
  from: TableRef,
  to: TableRef,
  opts: { checksum: boolean; sourceAt?: TimeTravel },
): Promise<TableValidation> {
  const base = { schema: to.schema, table: to.name };
  try {
    const [a, b] = await Promise.all([src.tableStats(from, opts.sourceAt), dst.tableStats(to)]);
    const rows_match = a.rowCount === b.rowCount;
    const out: TableValidation = {
      ...base,
      source_rows: a.rowCount,
      target_rows: b.rowCount,
      rows_match,
      match: rows_match,
    };
    if (opts.checksum && rows_match) {
      const [x, y] = await Promise.all([src.tableChecksum(from, opts.sourceAt), dst.tableChecksum(to)]);
      out.checksum_match = x === y;
      out.match = out.checksum_match;
    }
    return out;
  } catch (err) {
    return {
      ...base,
      source_rows: null,
      target_rows: null,
      rows_match: false,
      match: false,
      error: `could not validate: ${message(err)}`,
    };
  }
}

/** Row count and NULL counts per column, source vs destination. A failed query is a failed comparison. */
export async function compareTableDq(
  src: Workspace,
  dst: Workspace,
  from: TableRef,
  to: TableRef,
  sourceAt?: TimeTravel,
): Promise<DqComparison> {
  try {
    const [a, b] = await Promise.all([src.tableStats(from, sourceAt), dst.tableStats(to)]);
    return compareStats(to.schema, to.name, a, b);
  } catch (err) {
    return {
      schema: to.schema,
      table: to.name,
      source_rows: null,
      target_rows: null,
      row_drift_pct: 0,
      null_drift_pct: {},
      max_drift_pct: 0,
      error: `comparison query failed: ${message(err)}`,
    };
  }
}
