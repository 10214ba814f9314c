import { InvalidInputError } from '../../errors';
import type { Securable, TableRef } from '../../types';
import { ident, schemaName, tableName } from './quote';

/**
 * Unity Catalog's own naming rule (its docs: at most 255 characters; no period, space, forward slash,
 * ASCII control character or DEL). Wider than platform/identifiers.ts on purpose: real workspaces hold
 * names with `$`, `@`, quotes or non-ASCII letters, and cloning them must work. Quoting does the rest.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses or escapes
const UC_NAME = /^[^.\s/\x00-\x1f\x7f]{1,255}$/u;

export function ucName(name: unknown, what: string): string {
  if (typeof name !== 'string' || !UC_NAME.test(name)) {
    throw new InvalidInputError(
      `invalid ${what} ${JSON.stringify(name)}: 1-255 characters, no '.', space, '/' or control characters`,
    );
  }
  return name;
}

/** Column names may contain spaces and dots in Databricks; only control characters are refused. */
export function columnName(name: unknown): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses or escapes
  if (typeof name !== 'string' || !/^[^\x00-\x1f\x7f]{1,255}$/u.test(name)) {
    throw new InvalidInputError(`invalid column name ${JSON.stringify(name)}`);
  }
  return name;
}

export function checkRef(ref: TableRef, what = 'table'): TableRef {
  if (!ref || typeof ref !== 'object') throw new InvalidInputError(`${what} reference is required`);
  ucName(ref.catalog, `${what} catalog name`);
  ucName(ref.schema, `${what} schema name`);
  ucName(ref.name, `${what} name`);
  return ref;
}

/** Keyword used after ON / ALTER for a securable. Views are altered as VIEW but granted ON TABLE. */
export function securableKeyword(s: Securable, forGrant = false): string {
  if (forGrant && s.type === 'VIEW') return 'TABLE';
  return s.type;
}

/** The quoted name of a securable: one, two or three parts depending on its type. Quotes, never validates. */
export function securableName(s: Securable): string {
  if (s.type === 'CATALOG') return ident(s.catalog);
  if (s.schema === undefined) throw new InvalidInputError(`${s.type} securable needs a schema`);
  if (s.type === 'SCHEMA') return schemaName(s.catalog, s.schema);
  if (s.name === undefined) throw new InvalidInputError(`${s.type} securable needs a name`);
  return tableName({ catalog: s.catalog, schema: s.schema, name: s.name });
}

/** Unity Catalog name rules for every part of a securable (operations call this before building SQL). */
export function checkSecurable(s: Securable): Securable {
  const types = ['CATALOG', 'SCHEMA', 'TABLE', 'VIEW', 'FUNCTION', 'VOLUME'];
  if (!s || !types.includes(s.type)) throw new InvalidInputError(`securable type must be one of ${types.join(', ')}`);
  ucName(s.catalog, 'catalog name');
  if (s.type !== 'CATALOG') ucName(s.schema, 'schema name');
  if (s.type !== 'CATALOG' && s.type !== 'SCHEMA') ucName(s.name, `${s.type.toLowerCase()} name`);
  securableName(s);
  return s;
}

/** `catalog.schema.name` as the REST API spells a full name (unquoted). */
export function fullName(s: Securable): string {
  return [s.catalog, s.schema, s.name].filter((p): p is string => p !== undefined).join('.');
}
