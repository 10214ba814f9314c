import { InvalidInputError } from '../../errors';
import { duckIdent, withDuck } from '../duck';
import type { DeltaField } from './contract';
import { duckType, typeFromDuck } from './schema';
import { asInputError } from './sql-errors';

/** Column names and Databricks types of a query's result (binds the query, reads no rows). */
export async function describeQuery(selectSql: string): Promise<DeltaField[]> {
  return withDuck(async (conn) => {
    const reader = await asInputError(() => conn.runAndReadAll(`SELECT * FROM (${selectSql}) AS q LIMIT 0`));
    const names = reader.columnNames();
    const types = reader.columnTypes();
    return names.map((name, i) => ({ name, type: typeFromDuck(types[i], name), nullable: true }));
  });
}

/**
 * Wraps a caller's query so that it yields exactly the table's columns, cast to their types. Columns are
 * matched by name when the query has the same column names as the table, otherwise by position
 * (INSERT INTO t SELECT ... semantics); a different column count is an InvalidInputError.
 */
export async function shapeSelect(selectSql: string, schema: DeltaField[]): Promise<string> {
  const cols = await describeQuery(selectSql);
  if (cols.length !== schema.length) {
    throw new InvalidInputError(
      `query returns ${cols.length} columns but the table has ${schema.length} (${schema.map((f) => f.name).join(', ')})`,
    );
  }
  const byName = new Map(cols.map((c) => [c.name.toLowerCase(), c.name]));
  const sameNames = schema.every((f) => byName.has(f.name.toLowerCase())) && byName.size === cols.length;
  if (sameNames) {
    const list = schema.map(
      (f) => `CAST(src.${duckIdent(byName.get(f.name.toLowerCase())!)} AS ${duckType(f.type)}) AS ${duckIdent(f.name)}`,
    );
    return `SELECT ${list.join(', ')} FROM (${selectSql}) AS src`;
  }
  const aliases = schema.map((_, i) => duckIdent(`__c${i}`)).join(', ');
  const list = schema.map((f, i) => `CAST(src.${duckIdent(`__c${i}`)} AS ${duckType(f.type)}) AS ${duckIdent(f.name)}`);
  return `SELECT ${list.join(', ')} FROM (${selectSql}) AS src(${aliases})`;
}
