import { InvalidInputError } from '../../errors';
import type { CheckConstraint, ColumnMask, RowFilter, Securable, TableRef } from '../../types';
import { privilege, singleStatement } from './fragments';
import { securableKeyword, securableName } from './names';
import { columnList, dottedName, ident, keyList, keyValueList, lit, litOrNull, tableName } from './quote';

/** Grants, ownership, tags, comments, properties, constraints, row filters and column masks. */
function privileges(list: string[]): string {
  if (!Array.isArray(list) || list.length === 0) throw new InvalidInputError('privileges must be a non-empty list');
  return list.map(privilege).join(', ');
}

export function grantSql(s: Securable, principal: string, privs: string[]): string {
  return `GRANT ${privileges(privs)} ON ${securableKeyword(s, true)} ${securableName(s)} TO ${ident(principal)}`;
}

export function revokeSql(s: Securable, principal: string, privs: string[]): string {
  return `REVOKE ${privileges(privs)} ON ${securableKeyword(s, true)} ${securableName(s)} FROM ${ident(principal)}`;
}

export function setOwnerSql(s: Securable, principal: string): string {
  return `ALTER ${securableKeyword(s)} ${securableName(s)} OWNER TO ${ident(principal)}`;
}

/** Functions carry no tags in Unity Catalog. */
function taggable(s: Securable): string {
  if (s.type === 'FUNCTION') throw new InvalidInputError('Unity Catalog functions cannot carry tags');
  return `ALTER ${securableKeyword(s)} ${securableName(s)}`;
}

/**
 * The `SET TAGS` clause form overwrites existing keys and works on every current runtime; the newer
 * `SET TAG ON` statement raises when a key already exists, which would make re-runs fail.
 */
export function setTagsSql(s: Securable, tags: Record<string, string>): string {
  return `${taggable(s)} SET TAGS ${keyValueList(tags)}`;
}

export function unsetTagsSql(s: Securable, keys: string[]): string {
  return `${taggable(s)} UNSET TAGS ${keyList(keys)}`;
}

export function setColumnTagsSql(ref: TableRef, column: string, tags: Record<string, string>): string {
  return `ALTER TABLE ${tableName(ref)} ALTER COLUMN ${ident(column)} SET TAGS ${keyValueList(tags)}`;
}

export function unsetColumnTagsSql(ref: TableRef, column: string, keys: string[]): string {
  return `ALTER TABLE ${tableName(ref)} ALTER COLUMN ${ident(column)} UNSET TAGS ${keyList(keys)}`;
}

/** COMMENT ON covers catalogs, schemas, tables (views included) and volumes; NULL removes the comment. */
export function commentOnSql(s: Securable, comment: string | null): string {
  if (s.type === 'FUNCTION')
    throw new InvalidInputError('a function comment can only be set by re-creating the function');
  const keyword = s.type === 'VIEW' ? 'TABLE' : s.type;
  return `COMMENT ON ${keyword} ${securableName(s)} IS ${litOrNull(comment)}`;
}

/** Column comments have no NULL form; an empty comment is how Databricks removes one. */
export function columnCommentSql(ref: TableRef, column: string, comment: string | null): string {
  return `ALTER TABLE ${tableName(ref)} ALTER COLUMN ${ident(column)} COMMENT ${lit(comment ?? '')}`;
}

export function setTblPropertiesSql(ref: TableRef, props: Record<string, string>): string {
  return `ALTER TABLE ${tableName(ref)} SET TBLPROPERTIES ${keyValueList(props)}`;
}

export function unsetTblPropertiesSql(ref: TableRef, keys: string[]): string {
  return `ALTER TABLE ${tableName(ref)} UNSET TBLPROPERTIES IF EXISTS ${keyList(keys)}`;
}

export function addCheckConstraintSql(ref: TableRef, c: CheckConstraint): string {
  return `ALTER TABLE ${tableName(ref)} ADD CONSTRAINT ${ident(c.name)} CHECK (${singleStatement(c.expression, 'check expression')})`;
}

export function dropConstraintSql(ref: TableRef, name: string): string {
  return `ALTER TABLE ${tableName(ref)} DROP CONSTRAINT ${ident(name)}`;
}

export function setRowFilterSql(ref: TableRef, f: RowFilter): string {
  return `ALTER TABLE ${tableName(ref)} SET ROW FILTER ${dottedName(f.functionName)} ON ${columnList(f.columns)}`;
}

export function dropRowFilterSql(ref: TableRef): string {
  return `ALTER TABLE ${tableName(ref)} DROP ROW FILTER`;
}

export function setColumnMaskSql(ref: TableRef, m: ColumnMask): string {
  const using = m.usingColumns.length ? ` USING COLUMNS ${columnList(m.usingColumns)}` : '';
  return `ALTER TABLE ${tableName(ref)} ALTER COLUMN ${ident(m.column)} SET MASK ${dottedName(m.functionName)}${using}`;
}

export function dropColumnMaskSql(ref: TableRef, column: string): string {
  return `ALTER TABLE ${tableName(ref)} ALTER COLUMN ${ident(column)} DROP MASK`;
}

/** Reads tags from the information_schema tag views (DBR 13.3+). */
export function tagsQuerySql(s: Securable): string {
  if (s.type === 'FUNCTION') throw new InvalidInputError('Unity Catalog functions cannot carry tags');
  securableName(s);
  const view = `${ident(s.catalog)}.information_schema.`;
  const cat = `catalog_name = ${lit(s.catalog.toLowerCase())}`;
  if (s.type === 'CATALOG') return `SELECT tag_name, tag_value FROM ${view}catalog_tags WHERE ${cat} ORDER BY tag_name`;
  const sch = `${cat} AND schema_name = ${lit((s.schema as string).toLowerCase())}`;
  if (s.type === 'SCHEMA') return `SELECT tag_name, tag_value FROM ${view}schema_tags WHERE ${sch} ORDER BY tag_name`;
  const name = lit((s.name as string).toLowerCase());
  if (s.type === 'VOLUME')
    return `SELECT tag_name, tag_value FROM ${view}volume_tags WHERE ${sch} AND volume_name = ${name} ORDER BY tag_name`;
  return `SELECT tag_name, tag_value FROM ${view}table_tags WHERE ${sch} AND table_name = ${name} ORDER BY tag_name`;
}

export function columnTagsQuerySql(ref: TableRef): string {
  const where = [
    `catalog_name = ${lit(ref.catalog.toLowerCase())}`,
    `schema_name = ${lit(ref.schema.toLowerCase())}`,
    `table_name = ${lit(ref.name.toLowerCase())}`,
  ].join(' AND ');
  return `SELECT column_name, tag_name, tag_value FROM ${ident(ref.catalog)}.information_schema.column_tags WHERE ${where} ORDER BY column_name, tag_name`;
}
