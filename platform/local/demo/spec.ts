import type { ColumnDef, DataFormat } from '../../types';

/** One demo table: its columns, how many rows and the SELECT (over `range(1, n + 1) AS r(i)`) that makes them. */
export interface DemoTable {
  schema: string;
  name: string;
  comment: string;
  columns: ColumnDef[];
  rows: number;
  /** Select list over `i` (1..rows), in column order; `{n:<table>}` is that table's row count (for foreign keys). */
  select: string;
  format?: DataFormat;
  properties?: Record<string, string>;
  tags?: Record<string, string>;
}

export const col = (name: string, type: string, comment?: string, nullable = true): ColumnDef => ({
  name,
  type,
  comment: comment ?? null,
  nullable,
});
export const key = (name: string, comment: string): ColumnDef => col(name, 'bigint', comment, false);

/** Deterministic pseudo-random pick in 1..n (no RNG: the same seed gives the same data). */
export const fk = (table: string, salt: number) => `CAST(1 + hash(i * ${salt}) % {n:${table}} AS BIGINT)`;
export const pick = (values: string[], salt: number) =>
  `[${values.map((v) => `'${v}'`).join(', ')}][CAST(1 + hash(i * ${salt}) % ${values.length} AS BIGINT)]`;
export const money = (salt: number, max = 1000) => `CAST((hash(i * ${salt}) % ${max * 100}) / 100.0 AS DECIMAL(12,2))`;
export const day = (salt: number) => `DATE '2024-01-01' + CAST(hash(i * ${salt}) % 540 AS INTEGER)`;
export const instant = (salt: number) =>
  `TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(CAST(hash(i * ${salt}) % 46656000 AS BIGINT))`;
export const REGIONS = ['EMEA', 'AMER', 'APAC'];
