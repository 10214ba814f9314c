import { InvalidInputError } from '../../errors';
import type { TableRef, TimeTravel } from '../../types';

/**
 * Quoting for Databricks SQL. Identifiers always go in backticks with embedded backticks doubled.
 * String literals use backslash escapes: Databricks (Spark) does NOT treat `''` as an escaped quote —
 * `'it''s'` is two adjacent literals concatenated to `its` — so quotes and backslashes are escaped with `\`.
 */
export function ident(name: string): string {
  if (name.length === 0) throw new InvalidInputError('empty identifier');
  return '`' + name.replace(/`/g, '``') + '`';
}

/** `catalog`.`schema`.`name` */
export function tableName(ref: TableRef): string {
  return `${ident(ref.catalog)}.${ident(ref.schema)}.${ident(ref.name)}`;
}

export function schemaName(catalog: string, schema: string): string {
  return `${ident(catalog)}.${ident(schema)}`;
}

/** A three-part name written as `a.b.c` (function names in row filters and masks) quoted part by part. */
export function dottedName(text: string): string {
  const parts = text.split('.');
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) {
    throw new InvalidInputError(`expected a three-part name catalog.schema.name, got ${JSON.stringify(text)}`);
  }
  return parts.map(ident).join('.');
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function lit(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses or escapes
  const body = value.replace(/[\\'\n\r\t]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, (ch) => {
    return ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `'${body}'`;
}

export function litOrNull(value: string | null | undefined): string {
  return value === null || value === undefined ? 'NULL' : lit(value);
}

/** `('k' = 'v', ...)` for TBLPROPERTIES and SET TAGS. */
export function keyValueList(map: Record<string, string>): string {
  const entries = Object.entries(map);
  if (entries.length === 0) throw new InvalidInputError('expected at least one key = value pair');
  return `(${entries.map(([k, v]) => `${lit(k)} = ${lit(v)}`).join(', ')})`;
}

/** `('k1', 'k2')` for UNSET TBLPROPERTIES / UNSET TAGS. */
export function keyList(keys: string[]): string {
  if (keys.length === 0) throw new InvalidInputError('expected at least one key');
  return `(${keys.map(lit).join(', ')})`;
}

export function columnList(columns: string[]): string {
  return `(${columns.map(ident).join(', ')})`;
}

export function nonNegativeInt(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InvalidInputError(`${what} must be a non-negative integer, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** ` VERSION AS OF n` / ` TIMESTAMP AS OF 'ts'` or '' — at most one of the two may be given. */
export function timeTravel(at: TimeTravel | undefined): string {
  if (!at) return '';
  if (at.version !== undefined && at.timestamp !== undefined) {
    throw new InvalidInputError('give either version or timestamp for time travel, not both');
  }
  if (at.version !== undefined) return ` VERSION AS OF ${nonNegativeInt(at.version, 'version')}`;
  if (at.timestamp !== undefined) {
    if (at.timestamp.trim() === '') throw new InvalidInputError('timestamp must not be empty');
    return ` TIMESTAMP AS OF ${lit(at.timestamp)}`;
  }
  return '';
}
