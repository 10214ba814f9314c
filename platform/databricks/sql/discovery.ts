import type { TableRef } from '../../types';
import { ident, lit, nonNegativeInt, tableName } from './quote';

/**
 * Discovery statements over Unity Catalog's information_schema (per catalog) and DESCRIBE. Unity
 * Catalog stores names in lower case, so filter literals are lower-cased to match what the views hold.
 */
const is = (catalog: string, view: string) => `${ident(catalog)}.information_schema.${view}`;
const eq = (column: string, value: string) => `${column} = ${lit(value.toLowerCase())}`;

/** Object kinds that are not plain tables: they cannot be cloned or time-travelled like Delta tables. */
const NOT_TABLES = `('VIEW', 'MATERIALIZED_VIEW', 'STREAMING_TABLE', 'FOREIGN')`;

export function listCatalogsSql(): string {
  return 'SELECT catalog_name, catalog_owner, comment, created FROM system.information_schema.catalogs ORDER BY catalog_name';
}

export function listSchemasSql(catalog: string, schema?: string): string {
  const where = schema === undefined ? `schema_name <> 'information_schema'` : eq('schema_name', schema);
  return `SELECT catalog_name, schema_name, schema_owner, comment FROM ${is(catalog, 'schemata')} WHERE ${where} ORDER BY schema_name`;
}

const TABLE_COLUMNS =
  'table_catalog, table_schema, table_name, table_type, data_source_format, table_owner, comment, created, last_altered';

export function listTablesSql(catalog: string, schema: string): string {
  return `SELECT ${TABLE_COLUMNS} FROM ${is(catalog, 'tables')} WHERE ${eq('table_schema', schema)} AND table_type NOT IN ${NOT_TABLES} ORDER BY table_name`;
}

/** One table or view by name (any type), for tableExists and describeTable. */
export function findTableSql(ref: TableRef): string {
  return `SELECT ${TABLE_COLUMNS} FROM ${is(ref.catalog, 'tables')} WHERE ${eq('table_schema', ref.schema)} AND ${eq('table_name', ref.name)}`;
}

export function listColumnsSql(ref: TableRef): string {
  return `SELECT column_name, full_data_type, is_nullable, comment, ordinal_position, partition_index FROM ${is(ref.catalog, 'columns')} WHERE ${eq('table_schema', ref.schema)} AND ${eq('table_name', ref.name)} ORDER BY ordinal_position`;
}

/** VIEW_DEFINITION is NULL unless the caller owns the view; owner and comment come from TABLES. */
export function listViewsSql(catalog: string, schema: string): string {
  return `SELECT v.table_catalog, v.table_schema, v.table_name, v.view_definition, t.table_owner, t.comment FROM ${is(catalog, 'views')} v JOIN ${is(catalog, 'tables')} t ON t.table_schema = v.table_schema AND t.table_name = v.table_name WHERE ${eq('v.table_schema', schema)} ORDER BY v.table_name`;
}

/** Owners of functions come from REST (getOwner); ROUTINES is not documented to carry one. */
export function listRoutinesSql(catalog: string, schema: string): string {
  return `SELECT routine_catalog, routine_schema, routine_name, specific_name, full_data_type, routine_definition, comment FROM ${is(catalog, 'routines')} WHERE ${eq('routine_schema', schema)} AND routine_body = 'SQL' ORDER BY routine_name`;
}

export function listParametersSql(catalog: string, schema: string): string {
  return `SELECT specific_name, parameter_name, full_data_type, ordinal_position FROM ${is(catalog, 'parameters')} WHERE ${eq('specific_schema', schema)} ORDER BY specific_name, ordinal_position`;
}

export function listVolumesSql(catalog: string, schema: string): string {
  return `SELECT volume_catalog, volume_schema, volume_name, volume_type, storage_location, volume_owner, comment FROM ${is(catalog, 'volumes')} WHERE ${eq('volume_schema', schema)} ORDER BY volume_name`;
}

export function describeHistorySql(ref: TableRef, limit?: number): string {
  const tail = limit === undefined ? '' : ` LIMIT ${nonNegativeInt(limit, 'limit')}`;
  return `DESCRIBE HISTORY ${tableName(ref)}${tail}`;
}

export function describeDetailSql(ref: TableRef): string {
  return `DESCRIBE DETAIL ${tableName(ref)}`;
}

export function showTblPropertiesSql(ref: TableRef): string {
  return `SHOW TBLPROPERTIES ${tableName(ref)}`;
}

export function showGrantsSql(securableKeyword: string, quotedName: string): string {
  return `SHOW GRANTS ON ${securableKeyword} ${quotedName}`;
}
