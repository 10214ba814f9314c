import type { QueryColumn } from '../../types';

/** The rows of one statement, with column names and Databricks type names (lower case). */
export interface SqlRows {
  columns: QueryColumn[];
  rows: Record<string, unknown>[];
}

/**
 * The only thing the adapter needs from the SQL driver. The real one wraps `@databricks/sql`; tests use
 * a recording fake that implements the same two methods and asserts the statements sent.
 */
/** A workbench statement's driver options: named parameters, a row cap, a client-side timeout, a cancel signal. */
export interface StreamingOptions {
  parameters: { name: string; value: string | null; type: string | null }[];
  rowLimit: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface SqlSession {
  executeStatement(sql: string): Promise<SqlRows>;
  /**
   * One statement read with `fetchChunk` until `rowLimit` rows (`truncated` when more exist); the timeout or the
   * signal cancels the operation (`op.cancel()`), failing with DeadlineExceededError / StatementCanceledError.
   */
  executeStreaming(sql: string, opts: StreamingOptions): Promise<SqlRows & { truncated: boolean }>;
  close(): Promise<void>;
}

/**
 * Driver values made plain: BIGINTs back to numbers when exact, timestamps to ISO strings, and
 * complex values that arrive as JSON text (non-Arrow results) parsed.
 */
export function plainValue(value: unknown, type: string): unknown {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  }
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' && /^(array|map|struct)/.test(type)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.map((v) => plainValue(v, ''));
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainValue(v, '')]));
  }
  return value;
}
