import type { QueryResult } from '../../types';
import { duckToDatabricks } from './types';

/** DuckDB values → the port's JS values: safe bigints as numbers, dates and timestamps as ISO text, maps as objects. */
export function toJsValue(v: unknown, type: string): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v >= Number.MIN_SAFE_INTEGER && v <= Number.MAX_SAFE_INTEGER ? Number(v) : v;
  if (v instanceof Date) return type === 'date' ? v.toISOString().slice(0, 10) : v.toISOString();
  if (Buffer.isBuffer(v)) return v;
  if (Array.isArray(v)) {
    if (type.startsWith('map<'))
      return Object.fromEntries(
        v.map((e: { key: unknown; value: unknown }) => [String(e.key), toJsValue(e.value, '')]),
      );
    const inner = /^array<(.*)>$/.exec(type)?.[1] ?? '';
    return v.map((x) => toJsValue(x, inner));
  }
  if (typeof v === 'object')
    return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, toJsValue(x, '')]));
  return v;
}

interface Reader {
  columnNames(): string[];
  columnTypes(): { toString(): string }[];
  getRowObjectsJS(): Record<string, unknown>[];
}

export function toQueryResult(reader: Reader): QueryResult {
  const names = reader.columnNames();
  const types = reader.columnTypes().map((t) => duckToDatabricks(String(t)));
  const columns = names.map((name, i) => ({ name, type: types[i] }));
  const rows = reader.getRowObjectsJS().map((row) => {
    const out: Record<string, unknown> = {};
    names.forEach((n, i) => (out[n] = toJsValue(row[n], types[i])));
    return out;
  });
  return { columns, rows };
}
