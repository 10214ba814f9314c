import { InvalidInputError } from '../../errors';
import type { BoundValue, ColumnDef, TableRef } from '../../types';
import { columnList, ident, tableName } from './quote';

/** Databricks type text of a column we write: letters, digits and the punctuation of decimal(p,s)/array<…>. */
function typeText(type: string, where: string): string {
  if (typeof type !== 'string' || !/^[A-Za-z][A-Za-z0-9_<>,(): ]{0,200}$/.test(type)) {
    throw new InvalidInputError(`${where}: invalid type ${JSON.stringify(type)}`);
  }
  return type.toUpperCase();
}

/** ALTER TABLE … ADD COLUMNS (…): Databricks has no IF NOT EXISTS here, so callers add only what is missing. */
export function addColumnsSql(ref: TableRef, columns: ColumnDef[]): string {
  if (columns.length === 0) throw new InvalidInputError('columns: at least one is required');
  const cols = columns.map((c, i) => `${ident(c.name)} ${typeText(c.type, `columns[${i}]`)}`);
  return `ALTER TABLE ${tableName(ref)} ADD COLUMNS (${cols.join(', ')})`;
}

/**
 * INSERT of one row whose values are named parameters (`:v0`, `:v1` …) sent as STRING and cast to the column
 * type; BINARY values travel as base64 text through `unbase64(:vN)` (the driver has no binary parameter type).
 */
export function insertBoundRowSql(
  ref: TableRef,
  values: BoundValue[],
): { sql: string; parameters: { name: string; value: string | null; type: string | null }[] } {
  if (values.length === 0) throw new InvalidInputError('values: at least one is required');
  const parameters = values.map((v, i) => {
    const x = v.value;
    const value =
      x === null || x === undefined
        ? null
        : Buffer.isBuffer(x)
          ? x.toString('base64')
          : x instanceof Date
            ? x.toISOString()
            : String(x);
    return { name: `v${i}`, value, type: 'STRING' };
  });
  const exprs = values.map((v, i) => {
    const t = typeText(v.type, `values[${i}]`);
    return t === 'BINARY' ? `unbase64(:v${i})` : `CAST(:v${i} AS ${t})`;
  });
  return {
    sql: `INSERT INTO ${tableName(ref)} ${columnList(values.map((v) => v.name))} VALUES (${exprs.join(', ')})`,
    parameters,
  };
}
