import type { RowPair } from '../../../schemas/analysis';

type Row = Record<string, unknown>;

/** A value as JSON would show it, so 1 and 1n, or equal dates from two engines, compare equal. */
function canonical(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  if (v !== null && typeof v === 'object')
    return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
  return JSON.stringify(v ?? null);
}

/**
 * Source and destination rows side by side, by position (both sides read with the same ORDER BY), with the
 * columns that differ on each row marked. A row present on one side only differs in every column. Pure.
 */
export function pairRows(source: Row[], dest: Row[]): { rows: RowPair[]; differences: number } {
  const rows: RowPair[] = [];
  let differences = 0;
  for (let i = 0; i < Math.max(source.length, dest.length); i++) {
    const a = source[i] ?? null;
    const b = dest[i] ?? null;
    const columns = [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])];
    const differing = a === null || b === null ? columns : columns.filter((c) => canonical(a[c]) !== canonical(b[c]));
    if (differing.length > 0) differences++;
    rows.push({ index: i, source: a, dest: b, differing_columns: differing });
  }
  return { rows, differences };
}

/** JSON-safe rows: bigints beyond 2^53 become strings (the API answers JSON). */
export function jsonRows(rows: Row[]): Row[] {
  return rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])),
  );
}
