/** Rows of a cell's output kept in the notebook (the statement keeps its whole result for an hour). */
export const CELL_OUTPUT_ROWS = 100;

/** What a cell keeps of its statement: state, columns, the first 100 rows, and the error if it failed. */
export function cellOutputOf(stmt: {
  id: string;
  state: string;
  columns: { name: string; type: string }[] | null;
  rows: (string | null)[][] | null;
  truncated: boolean;
  errorMessage: string | null;
  endedAt: Date | null;
}): Record<string, unknown> {
  const rows = stmt.rows ?? [];
  return {
    statement_id: stmt.id,
    state: stmt.state,
    columns: stmt.columns ?? [],
    rows: rows.slice(0, CELL_OUTPUT_ROWS),
    row_count: rows.length,
    truncated: stmt.truncated || rows.length > CELL_OUTPUT_ROWS,
    ...(stmt.errorMessage ? { error: stmt.errorMessage } : {}),
    ran_at: (stmt.endedAt ?? new Date(0)).toISOString(),
  };
}
