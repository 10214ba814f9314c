import { InvalidInputError } from '../../errors';
import type { CreateTableOptions, TableRef } from '../../types';
import { singleStatement, typeText } from './fragments';
import { columnList, ident, keyValueList, lit, schemaName, tableName } from './quote';

/** CREATE / DROP statements for containers and objects. */
const comment = (c: string | null | undefined) => (c === null || c === undefined ? '' : ` COMMENT ${lit(c)}`);
const ifNotExists = (flag: boolean | undefined) => (flag ? ' IF NOT EXISTS' : '');
const ifExists = (flag: boolean | undefined) => (flag ? ' IF EXISTS' : '');
const cascade = (flag: boolean | undefined) => (flag ? ' CASCADE' : '');

export function createCatalogSql(o: {
  name: string;
  managedLocation?: string;
  comment?: string;
  ifNotExists?: boolean;
}): string {
  const location = o.managedLocation === undefined ? '' : ` MANAGED LOCATION ${lit(o.managedLocation)}`;
  return `CREATE CATALOG${ifNotExists(o.ifNotExists)} ${ident(o.name)}${location}${comment(o.comment)}`;
}

export function dropCatalogSql(name: string, o: { cascade?: boolean; ifExists?: boolean } = {}): string {
  return `DROP CATALOG${ifExists(o.ifExists)} ${ident(name)}${cascade(o.cascade)}`;
}

export function createSchemaSql(o: { catalog: string; name: string; comment?: string; ifNotExists?: boolean }): string {
  return `CREATE SCHEMA${ifNotExists(o.ifNotExists)} ${schemaName(o.catalog, o.name)}${comment(o.comment)}`;
}

export function dropSchemaSql(
  catalog: string,
  schema: string,
  o: { cascade?: boolean; ifExists?: boolean } = {},
): string {
  return `DROP SCHEMA${ifExists(o.ifExists)} ${schemaName(catalog, schema)}${cascade(o.cascade)}`;
}

export function createViewSql(o: {
  ref: TableRef;
  definition: string;
  comment?: string | null;
  replace?: boolean;
}): string {
  const body = singleStatement(o.definition, 'view definition');
  return `CREATE${o.replace ? ' OR REPLACE' : ''} VIEW ${tableName(o.ref)}${comment(o.comment)} AS ${body}`;
}

export function createFunctionSql(o: {
  ref: TableRef;
  parameters: string;
  returnType: string;
  body: string;
  comment?: string | null;
  replace?: boolean;
}): string {
  const params = o.parameters.trim() === '' ? '' : singleStatement(o.parameters, 'function parameters');
  if (/[()]/.test(params.replace(/\([0-9,\s]*\)/g, ''))) {
    throw new InvalidInputError('function parameters must be a plain list such as `ssn STRING, region STRING`');
  }
  const returns = typeText(o.returnType, 'function return type');
  const body = singleStatement(o.body, 'function body');
  return `CREATE${o.replace ? ' OR REPLACE' : ''} FUNCTION ${tableName(o.ref)}(${params}) RETURNS ${returns}${comment(o.comment)} RETURN ${body}`;
}

export function createVolumeSql(o: {
  ref: TableRef;
  volumeType?: 'MANAGED' | 'EXTERNAL';
  storageLocation?: string;
  comment?: string | null;
  ifNotExists?: boolean;
}): string {
  const external = o.volumeType === 'EXTERNAL';
  if (external && o.storageLocation === undefined)
    throw new InvalidInputError('an EXTERNAL volume needs storageLocation');
  if (!external && o.storageLocation !== undefined)
    throw new InvalidInputError('storageLocation is only for EXTERNAL volumes');
  const location = external ? ` LOCATION ${lit(o.storageLocation as string)}` : '';
  return `CREATE${external ? ' EXTERNAL' : ''} VOLUME${ifNotExists(o.ifNotExists)} ${tableName(o.ref)}${location}${comment(o.comment)}`;
}

type DropKind = 'TABLE' | 'VIEW' | 'FUNCTION' | 'VOLUME';
export function dropObjectSql(kind: DropKind, ref: TableRef, o: { ifExists?: boolean } = {}): string {
  return `DROP ${kind}${ifExists(o.ifExists)} ${tableName(ref)}`;
}

export function createTableSql(o: CreateTableOptions): string {
  if (o.columns.length === 0) throw new InvalidInputError('a table needs at least one column');
  const cols = o.columns.map((c) => {
    const notNull = c.nullable === false ? ' NOT NULL' : '';
    return `${ident(c.name)} ${typeText(c.type, `column ${c.name}`)}${notNull}${comment(c.comment)}`;
  });
  const parts = [`CREATE TABLE ${tableName(o.ref)} (${cols.join(', ')}) USING ${o.format ?? 'DELTA'}`];
  if (o.partitionColumns?.length) parts.push(`PARTITIONED BY ${columnList(o.partitionColumns)}`);
  if (o.location !== undefined) parts.push(`LOCATION ${lit(o.location)}`);
  if (o.comment !== null && o.comment !== undefined) parts.push(`COMMENT ${lit(o.comment)}`);
  if (o.properties && Object.keys(o.properties).length) parts.push(`TBLPROPERTIES ${keyValueList(o.properties)}`);
  return parts.join(' ');
}
