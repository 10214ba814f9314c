import { InvalidInputError } from '../../errors';
import type { TableRef } from '../../types';
import { singleStatement } from './fragments';
import { columnList, ident, lit, tableName } from './quote';

/** Data changes. Values from JS are rendered as typed literals; expressions from users are checked. */
export function valueLiteral(v: unknown, where: string): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'bigint') return `${v}L`;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new InvalidInputError(`${where}: ${v} cannot be stored`);
    return Number.isInteger(v) ? String(v) : `${v}D`;
  }
  if (typeof v === 'string') return lit(v);
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw new InvalidInputError(`${where}: invalid date`);
    return `TIMESTAMP ${lit(v.toISOString())}`;
  }
  if (Buffer.isBuffer(v)) return `X'${v.toString('hex').toUpperCase()}'`;
  if (Array.isArray(v)) return `array(${v.map((x, i) => valueLiteral(x, `${where}[${i}]`)).join(', ')})`;
  if (typeof v === 'object') {
    const fields = Object.entries(v as Record<string, unknown>);
    if (fields.length === 0) throw new InvalidInputError(`${where}: empty object cannot be stored`);
    return `named_struct(${fields.map(([k, x]) => `${lit(k)}, ${valueLiteral(x, `${where}.${k}`)}`).join(', ')})`;
  }
  throw new InvalidInputError(`${where}: unsupported value of type ${typeof v}`);
}

/** One multi-row INSERT; the column list is the union of keys, missing keys become NULL. */
export function insertRowsSql(ref: TableRef, rows: Record<string, unknown>[]): string {
  if (rows.length === 0) throw new InvalidInputError('insertRows needs at least one row');
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  if (columns.length === 0) throw new InvalidInputError('rows have no columns');
  const values = rows.map((r, i) => `(${columns.map((c) => valueLiteral(r[c], `rows[${i}].${c}`)).join(', ')})`);
  return `INSERT INTO ${tableName(ref)} ${columnList(columns)} VALUES ${values.join(', ')}`;
}

export function insertQuerySql(ref: TableRef, query: string): string {
  return `INSERT INTO ${tableName(ref)} ${singleStatement(query, 'query')}`;
}

export function overwriteQuerySql(ref: TableRef, query: string): string {
  return `INSERT OVERWRITE ${tableName(ref)} ${singleStatement(query, 'query')}`;
}

export function deleteWhereSql(ref: TableRef, predicate: string): string {
  return `DELETE FROM ${tableName(ref)} WHERE ${singleStatement(predicate, 'predicate')}`;
}

export function updateWhereSql(ref: TableRef, set: Record<string, string>, predicate: string): string {
  const entries = Object.entries(set);
  if (entries.length === 0) throw new InvalidInputError('update needs at least one column to set');
  const assignments = entries.map(([c, e]) => `${ident(c)} = ${singleStatement(e, `value for ${c}`)}`);
  return `UPDATE ${tableName(ref)} SET ${assignments.join(', ')} WHERE ${singleStatement(predicate, 'predicate')}`;
}

/**
 * MERGE of net changes by key (see `netChanges`): the source is an inline VALUES table with a
 * `_lakeward_merge` column ('upsert' | 'delete'); matched deletes are deleted, matched upserts replace every
 * listed column, unmatched upserts are inserted. Columns are the union of the rows' columns (keys first).
 */
export function mergeChangesSql(
  ref: TableRef,
  net: { upserts: Record<string, unknown>[]; deletes: Record<string, unknown>[] },
  keys: string[],
): string {
  if (keys.length === 0) throw new InvalidInputError('keys: at least one key column is required');
  const rows = [
    ...net.upserts.map((r) => ({ action: 'upsert', row: r })),
    ...net.deletes.map((r) => ({ action: 'delete', row: r })),
  ];
  if (rows.length === 0) throw new InvalidInputError('merge needs at least one change');
  const columns = [...new Set([...keys, ...net.upserts.flatMap((r) => Object.keys(r))])];
  const values = rows.map(
    ({ action, row }, i) =>
      `(${[lit(action), ...columns.map((c) => valueLiteral(row[c], `changes[${i}].${c}`))].join(', ')})`,
  );
  const s = (c: string) => `s.${ident(c)}`;
  const on = keys.map((k) => `t.${ident(k)} = ${s(k)}`).join(' AND ');
  const set = columns.map((c) => `t.${ident(c)} = ${s(c)}`).join(', ');
  return (
    `MERGE INTO ${tableName(ref)} AS t USING (SELECT * FROM VALUES ${values.join(', ')} AS s(\`_lakeward_merge\`, ` +
    `${columns.map(ident).join(', ')})) AS s ON ${on} ` +
    `WHEN MATCHED AND s.\`_lakeward_merge\` = 'delete' THEN DELETE ` +
    `WHEN MATCHED THEN UPDATE SET ${set} ` +
    `WHEN NOT MATCHED AND s.\`_lakeward_merge\` = 'upsert' THEN INSERT ${columnList(columns)} VALUES (${columns.map(s).join(', ')})`
  );
}
