import { InvalidInputError, isPlatformError } from '../errors';
import type { ColumnInfo } from '../types';
import { duckIdent, duckString, withDuck } from './duck';
import { databricksToDuck, splitTopLevel } from './sql/types';

/** SQL building blocks for table writes: typed VALUES for rows, positional casts onto the table's columns. */

export function sqlLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return `CAST(${duckString(String(v))} AS DOUBLE)`;
    return String(v);
  }
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) return duckString(v.toISOString());
  if (Buffer.isBuffer(v)) return `from_hex(${duckString(v.toString('hex'))})`;
  if (Array.isArray(v)) return `[${v.map(sqlLiteral).join(', ')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as object)
      .map(([k, x]) => `${duckString(k)}: ${sqlLiteral(x)}`)
      .join(', ')}}`;
  }
  return duckString(String(v));
}

/**
 * A value as a DuckDB literal shaped by its column's Databricks type: a JS object for a `map<…>` becomes a MAP
 * of exactly its own keys (a struct literal cast to MAP would gain every key any row has, with NULL values),
 * and struct fields and array elements follow their own types.
 */
export function typedLiteral(v: unknown, type: string): string {
  if (v === null || v === undefined || typeof v !== 'object' || v instanceof Date || Buffer.isBuffer(v))
    return sqlLiteral(v);
  const t = type.trim();
  let m = /^array\s*<(.*)>$/is.exec(t);
  if (m && Array.isArray(v)) return `[${v.map((x) => typedLiteral(x, m![1])).join(', ')}]`;
  m = /^map\s*<(.*)>$/is.exec(t);
  if (m && !Array.isArray(v)) {
    const [k, val] = splitTopLevel(m[1]);
    const entries = Object.entries(v as object);
    if (entries.length === 0) return `MAP {}::${databricksToDuck(t)}`;
    return `MAP {${entries.map(([key, x]) => `${typedLiteral(key, k)}: ${typedLiteral(x, val)}`).join(', ')}}`;
  }
  m = /^struct\s*<(.*)>$/is.exec(t);
  if (m && !Array.isArray(v)) {
    const fieldTypes = new Map(
      splitTopLevel(m[1]).map((f) => {
        const i = f.indexOf(':');
        return [f.slice(0, i).trim().replace(/^`|`$/g, ''), f.slice(i + 1)] as const;
      }),
    );
    return `{${Object.entries(v as object)
      .map(([k, x]) => `${duckString(k)}: ${fieldTypes.has(k) ? typedLiteral(x, fieldTypes.get(k)!) : sqlLiteral(x)}`)
      .join(', ')}}`;
  }
  return sqlLiteral(v);
}

/** `SELECT CAST(... AS type) AS col, ...` over literal rows, in the table's column order. */
export function rowsSelect(columns: ColumnInfo[], rows: Record<string, unknown>[]): string {
  const known = new Set(columns.map((c) => c.name));
  rows.forEach((row, i) => {
    if (!row || typeof row !== 'object' || Array.isArray(row))
      throw new InvalidInputError(`rows[${i}] must be an object`);
    for (const k of Object.keys(row))
      if (!known.has(k)) throw new InvalidInputError(`rows[${i}]: unknown column ${JSON.stringify(k)}`);
  });
  const values = rows.map((row) => `(${columns.map((c) => typedLiteral(row[c.name], c.type)).join(', ')})`).join(',\n');
  const aliases = columns.map((_, i) => `c${i}`).join(', ');
  return `SELECT ${castList(columns)} FROM (VALUES ${values}) AS _rows(${aliases})`;
}

function castList(columns: ColumnInfo[]): string {
  return columns.map((c, i) => `CAST(c${i} AS ${databricksToDuck(c.type)}) AS ${duckIdent(c.name)}`).join(', ');
}

/** Matches a query's columns to the table's by position (INSERT INTO t SELECT semantics) and casts them. */
export async function castToTable(columns: ColumnInfo[], selectSql: string): Promise<string> {
  const width = await withDuck(
    async (conn) => (await conn.runAndReadAll(`SELECT * FROM (${selectSql}) AS _q LIMIT 0`)).columnCount,
  ).catch((err) => {
    throw asInputError(err, 'query');
  });
  if (width !== columns.length) {
    throw new InvalidInputError(
      `query returns ${width} columns but the table has ${columns.length} (${columns.map((c) => c.name).join(', ')})`,
    );
  }
  return `SELECT ${castList(columns)} FROM (${selectSql}) AS _q(${columns.map((_, i) => `c${i}`).join(', ')})`;
}

/** DuckDB's own errors for bad SQL become InvalidInputError; platform errors pass through. */
export function asInputError(err: unknown, what: string): Error {
  if (isPlatformError(err)) return err;
  const msg = (err as Error)?.message ?? String(err);
  if (/^(Binder|Parser|Conversion|Catalog|Invalid Input|Constraint|Not implemented|Out of Range) Error/i.test(msg)) {
    return new InvalidInputError(`${what} failed: ${msg}`, { cause: err });
  }
  // Not `instanceof Error`: native addon errors may come from another realm (jest).
  return err as Error;
}
