import { InvalidInputError } from './errors';
import type { TableRef } from './types';

/**
 * Names Lakeward accepts for catalogs, schemas, tables, views, functions, volumes and columns coming from
 * users. Unity Catalog allows more through backtick quoting, but object names also become folder names in
 * the local lakehouse, so we accept the portable subset: letters, digits, underscore and hyphen, not starting
 * with a hyphen, at most 255 characters. Column names may also contain spaces (they are always quoted).
 */
const OBJECT_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,254}$/;

export function assertObjectName(name: unknown, what = 'name'): string {
  if (typeof name !== 'string' || !OBJECT_NAME.test(name)) {
    throw new InvalidInputError(
      `invalid ${what} ${JSON.stringify(name)}: use letters, digits, '_' or '-' (max 255, not starting with '-')`,
    );
  }
  return name;
}

export function assertColumnName(name: unknown): string {
  const printable = (s: string) => [...s].every((ch) => ch.charCodeAt(0) >= 0x20 && ch !== '`');
  if (typeof name !== 'string' || name.length === 0 || name.length > 255 || !printable(name)) {
    throw new InvalidInputError(`invalid column name ${JSON.stringify(name)}`);
  }
  return name;
}

export function assertTableRef(ref: TableRef): TableRef {
  assertObjectName(ref.catalog, 'catalog name');
  assertObjectName(ref.schema, 'schema name');
  assertObjectName(ref.name, 'table name');
  return ref;
}

export function fqn(ref: { catalog: string; schema: string; name: string }): string {
  return `${ref.catalog}.${ref.schema}.${ref.name}`;
}

/** Parses `catalog.schema.name` (no quoting) into a ref; throws InvalidInputError otherwise. */
export function parseFqn(text: string): TableRef {
  const parts = text.split('.');
  if (parts.length !== 3) throw new InvalidInputError(`expected catalog.schema.name, got ${JSON.stringify(text)}`);
  return assertTableRef({ catalog: parts[0], schema: parts[1], name: parts[2] });
}
