import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { blobValue, type DuckDBValue } from '@duckdb/node-api';
import { InvalidInputError } from '../errors';
import { assertColumnName } from '../identifiers';
import type { BoundValue, ColumnDef, TableRef } from '../types';
import { duckIdent, duckString, withDuck } from './duck';
import { fqnOf, type LocalContext } from './workspace-context';
import { appendEngineSelect } from './workspace-dml';
import { databricksToDuck } from './sql/types';

/** ALTER TABLE … ADD COLUMNS: nullable columns appended to a Delta table's schema in one metadata commit. */
export async function addColumns(ctx: LocalContext, ref: TableRef, columns: ColumnDef[]): Promise<void> {
  const entry = await ctx.table(ctx.ref(ref));
  if (entry.format !== 'DELTA') throw new InvalidInputError(`ADD COLUMNS needs a Delta table; ${fqnOf(entry)} is not`);
  if (!Array.isArray(columns) || columns.length === 0) throw new InvalidInputError('columns: at least one is required');
  const table = await ctx.delta(entry);
  const existing = (await ctx.columns(entry)).map((c) => ({ name: c.name, type: c.type, nullable: c.nullable }));
  const have = new Set(existing.map((f) => f.name.toLowerCase()));
  const added = columns.map((c, i) => {
    assertColumnName(c?.name);
    if (have.has(c.name.toLowerCase())) throw new InvalidInputError(`columns[${i}]: ${c.name} already exists`);
    have.add(c.name.toLowerCase());
    databricksToDuck(c.type);
    return { name: c.name, type: c.type.toLowerCase(), nullable: true };
  });
  const schema = [...existing, ...added];
  await table.updateMetadata({ schema }, { userName: ctx.user });
  await ctx.store.update(ctx.store.entryFile('tables', entry), fqnOf(entry), () => undefined);
}

/**
 * One row whose values never become SQL text: DuckDB prepared parameters (BINARY as a BLOB value) fill a staging
 * Parquet file, which is then appended to the table in one commit.
 */
export async function insertBoundRow(ctx: LocalContext, ref: TableRef, values: BoundValue[]): Promise<void> {
  if (!Array.isArray(values) || values.length === 0) throw new InvalidInputError('values: at least one is required');
  for (const v of values) assertColumnName(v?.name);
  const file = path.join(os.tmpdir(), `lakeward-bound-${randomUUID()}.parquet`);
  try {
    await withDuck(async (conn) => {
      const select = values.map((v, i) => `$${i + 1}::${databricksToDuck(v.type)} AS ${duckIdent(v.name)}`).join(', ');
      const params: DuckDBValue[] = values.map((v) => duckValue(v));
      await conn.run(`CREATE TEMP TABLE staged AS SELECT ${select}`, params);
      try {
        await conn.run(`COPY staged TO ${duckString(file)} (FORMAT parquet)`);
      } finally {
        await conn.run('DROP TABLE IF EXISTS staged');
      }
    });
    const given = new Map(values.map((v) => [v.name.toLowerCase(), v.name]));
    if (given.size !== values.length) throw new InvalidInputError('values: a column is given twice');
    await appendEngineSelect(ctx, ref, (columns) => {
      const missing = values.find((v) => !columns.some((c) => c.toLowerCase() === v.name.toLowerCase()));
      if (missing) throw new InvalidInputError(`${fqnOf(ref)} has no column ${missing.name}`);
      const list = columns.map((c) => (given.has(c.toLowerCase()) ? duckIdent(given.get(c.toLowerCase())!) : 'NULL'));
      return `SELECT ${list.join(', ')} FROM read_parquet(${duckString(file)})`;
    });
  } finally {
    await fs.rm(file, { force: true });
  }
}

function duckValue(v: BoundValue): DuckDBValue {
  const x = v.value;
  if (x === null || x === undefined) return null;
  if (Buffer.isBuffer(x)) return blobValue(new Uint8Array(x));
  if (x instanceof Date) return x.toISOString();
  if (typeof x === 'number' || typeof x === 'boolean' || typeof x === 'string') return String(x);
  throw new InvalidInputError(`${v.name}: unsupported value of type ${typeof x}`);
}
