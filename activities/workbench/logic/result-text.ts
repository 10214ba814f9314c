import { CHUNK_ROWS, type StatementResponse, type StatementState } from '../../../schemas/workbench';

/**
 * A value as the Statement Execution API's JSON_ARRAY format writes it: text, or null for NULL. Numbers and
 * booleans as their literal, binary as base64, nested values as JSON (64-bit integers exact).
 */
export function valueText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v instanceof Date) return v.toISOString();
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
}

export const rowsText = (rows: unknown[][]): (string | null)[][] => rows.map((r) => r.map(valueText));

/** Databricks' type_name for a type text: the base word in upper case (`decimal(10,2)` → DECIMAL). */
export function typeName(type: string): string {
  const base = /^[a-z_]+/i.exec(type)?.[0]?.toUpperCase() ?? 'STRING';
  return base === 'INTEGER' ? 'INT' : base;
}

export interface StoredStatement {
  id: string;
  state: StatementState;
  errorCode: string | null;
  errorMessage: string | null;
  columns: { name: string; type: string }[] | null;
  rows: (string | null)[][] | null;
  truncated: boolean;
}

/** Chunk `n` of a stored result (CHUNK_ROWS rows each), or null when there is no such chunk. */
export function chunkOf(rows: (string | null)[][], n: number) {
  const count = Math.max(1, Math.ceil(rows.length / CHUNK_ROWS));
  if (!Number.isInteger(n) || n < 0 || n >= count) return null;
  const data = rows.slice(n * CHUNK_ROWS, (n + 1) * CHUNK_ROWS);
  return {
    chunk_index: n,
    row_offset: n * CHUNK_ROWS,
    row_count: data.length,
    data_array: data,
    ...(n + 1 < count ? { next_chunk_index: n + 1 } : {}),
  };
}

/** The API's answer for a stored statement: status, and once it succeeded the manifest and the first chunk. */
export function statementView(s: StoredStatement): StatementResponse {
  const status: StatementResponse['status'] = { state: s.state };
  if (s.errorCode) status.error = { error_code: s.errorCode, message: s.errorMessage ?? '' };
  if (s.state !== 'SUCCEEDED' || !s.columns || !s.rows) return { statement_id: s.id, status };
  const rows = s.rows;
  const chunkCount = Math.max(1, Math.ceil(rows.length / CHUNK_ROWS));
  return {
    statement_id: s.id,
    status,
    manifest: {
      format: 'JSON_ARRAY',
      schema: {
        column_count: s.columns.length,
        columns: s.columns.map((c, i) => ({
          name: c.name,
          type_name: typeName(c.type),
          type_text: c.type.toUpperCase(),
          position: i,
        })),
      },
      total_row_count: rows.length,
      total_chunk_count: chunkCount,
      chunks: Array.from({ length: chunkCount }, (_, i) => ({
        chunk_index: i,
        row_offset: i * CHUNK_ROWS,
        row_count: Math.min(CHUNK_ROWS, rows.length - i * CHUNK_ROWS),
      })),
      truncated: s.truncated,
    },
    result: chunkOf(rows, 0)!,
  };
}

/** A statement's error code for a platform error code (Databricks' names where they exist). */
export function errorCodeOf(code: string | undefined): string {
  switch (code) {
    case 'DEADLINE_EXCEEDED':
      return 'DEADLINE_EXCEEDED';
    case 'CANCELED':
      return 'CANCELLED';
    case 'NOT_FOUND':
      return 'NOT_FOUND';
    case 'PERMISSION_DENIED':
      return 'PERMISSION_DENIED';
    case 'INVALID_INPUT':
      return 'BAD_REQUEST';
    case 'TRANSIENT':
      return 'TEMPORARILY_UNAVAILABLE';
    default:
      return 'INTERNAL_ERROR';
  }
}
