import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { InvalidInputError } from '../errors';
import type { TableRef } from '../types';
import { duckIdent, duckString, withDuck } from './duck';
import type { TableEntry } from './metastore/types';
import { assertRowsSatisfy } from './workspace-constraints';
import { fqnOf, type LocalContext } from './workspace-context';
import { parquetFiles, rawScanSql } from './workspace-scan';
import { writeIceberg } from './workspace-iceberg';
import { resolveForEngine } from './workspace-sql';
import { databricksToDuck } from './sql/types';
import { asInputError, castToTable, rowsSelect } from './workspace-write-sql';

/** INSERT / INSERT OVERWRITE / DELETE / UPDATE: CHECK constraints first, then one engine commit. */

async function touch(ctx: LocalContext, entry: TableEntry): Promise<void> {
  await ctx.store.update<TableEntry>(ctx.store.entryFile('tables', entry), fqnOf(entry), () => undefined);
}

/** Writes typed rows (DuckDB SELECT over the table's columns) into a table. */
async function write(
  ctx: LocalContext,
  entry: TableEntry,
  selectSql: string,
  mode: 'append' | 'overwrite',
): Promise<{ numOutputRows: number }> {
  await assertRowsSatisfy(ctx, entry, selectSql);
  try {
    if (entry.format === 'DELTA') {
      const table = await ctx.delta(entry);
      const out =
        mode === 'append'
          ? await table.append(selectSql, { userName: ctx.user })
          : await table.overwrite(selectSql, { userName: ctx.user });
      return { numOutputRows: out.numOutputRows };
    }
    if (entry.format === 'ICEBERG') return await writeIceberg(entry, selectSql, mode);
    return await writeParquet(entry, selectSql, mode);
  } catch (err) {
    throw asInputError(err, `write to ${fqnOf(entry)}`);
  }
}

/** Plain Parquet tables: each write adds one file; an overwrite then removes the older files. */
async function writeParquet(
  entry: TableEntry,
  selectSql: string,
  mode: 'append' | 'overwrite',
): Promise<{ numOutputRows: number }> {
  const dir = entry.location!;
  await fs.mkdir(dir, { recursive: true });
  const old = mode === 'overwrite' ? await parquetFiles(dir) : [];
  const file = path.join(dir, `part-${randomUUID()}.parquet`);
  const count = await withDuck(async (conn) => {
    await conn.run(`COPY (${selectSql}) TO ${duckString(file)} (FORMAT parquet)`);
    const reader = await conn.runAndReadAll(`SELECT count(*) AS n FROM read_parquet(${duckString(file)})`);
    return Number(reader.getRowObjectsJS()[0].n);
  });
  for (const f of old) await fs.rm(f, { force: true });
  return { numOutputRows: count };
}

export async function insertRows(
  ctx: LocalContext,
  ref: TableRef,
  rows: Record<string, unknown>[],
): Promise<{ numOutputRows: number }> {
  const entry = await ctx.table(ctx.ref(ref));
  if (!Array.isArray(rows)) throw new InvalidInputError('rows must be an array of objects');
  if (rows.length === 0) return { numOutputRows: 0 };
  const out = await write(ctx, entry, rowsSelect(await ctx.columns(entry), rows), 'append');
  await touch(ctx, entry);
  return out;
}

/**
 * Appends the records of the newline-delimited JSON files under `folder` (an absolute path inside a volume) in one
 * commit: DuckDB reads them with the table's columns (maps as MAP, other values as text) and casts to the table.
 */
export async function appendJsonFiles(
  ctx: LocalContext,
  ref: TableRef,
  folder: string,
): Promise<{ numOutputRows: number }> {
  const entry = await ctx.table(ctx.ref(ref));
  const columns = await ctx.columns(entry);
  const readAs = columns.map((c) => {
    const duck = databricksToDuck(c.type);
    return `${duckString(c.name)}: ${duckString(/^(MAP|STRUCT)|\[\]$/i.test(duck) ? duck : 'VARCHAR')}`;
  });
  const pattern = `${folder.replace(/\/+$/, '')}/**/*.json`;
  const selectSql =
    `SELECT ${columns.map((c) => `CAST(${duckIdent(c.name)} AS ${databricksToDuck(c.type)}) AS ${duckIdent(c.name)}`).join(', ')} ` +
    `FROM read_json(${duckString(pattern)}, format = 'newline_delimited', columns = {${readAs.join(', ')}})`;
  const out = await write(ctx, entry, selectSql, 'append');
  await touch(ctx, entry);
  return out;
}

export async function insertQuery(
  ctx: LocalContext,
  ref: TableRef,
  query: string,
  mode: 'append' | 'overwrite' = 'append',
): Promise<{ numOutputRows: number }> {
  const entry = await ctx.table(ctx.ref(ref));
  const selectSql = await castToTable(await ctx.columns(entry), await resolveForEngine(ctx, query, 'query'));
  const out = await write(ctx, entry, selectSql, mode);
  await touch(ctx, entry);
  return out;
}

/** Appends the rows of engine SQL (DuckDB, no catalog names to resolve), cast positionally onto the table's columns. */
export async function appendEngineSelect(
  ctx: LocalContext,
  ref: TableRef,
  duckSelect: (columns: string[]) => string,
): Promise<{ numOutputRows: number }> {
  const entry = await ctx.table(ctx.ref(ref));
  const columns = await ctx.columns(entry);
  const out = await write(ctx, entry, await castToTable(columns, duckSelect(columns.map((c) => c.name))), 'append');
  await touch(ctx, entry);
  return out;
}

function deltaOnly(entry: TableEntry, op: string): void {
  if (entry.format !== 'DELTA')
    throw new InvalidInputError(`${op} needs a Delta table; ${fqnOf(entry)} is ${entry.format}`);
}

export async function deleteWhere(
  ctx: LocalContext,
  ref: TableRef,
  predicate: string,
): Promise<{ numDeletedRows: number }> {
  const entry = await ctx.table(ctx.ref(ref));
  deltaOnly(entry, 'DELETE');
  const where = await resolveForEngine(ctx, predicate, 'expression');
  try {
    const out = await (await ctx.delta(entry)).deleteWhere(where, { userName: ctx.user });
    await touch(ctx, entry);
    return { numDeletedRows: out.numDeletedRows };
  } catch (err) {
    throw asInputError(err, `delete from ${fqnOf(entry)}`);
  }
}

export async function updateWhere(
  ctx: LocalContext,
  ref: TableRef,
  set: Record<string, string>,
  predicate: string,
): Promise<{ numUpdatedRows: number }> {
  const entry = await ctx.table(ctx.ref(ref));
  deltaOnly(entry, 'UPDATE');
  if (!set || typeof set !== 'object' || Object.keys(set).length === 0)
    throw new InvalidInputError('set: at least one column is required');
  const columns = (await ctx.columns(entry)).map((c) => c.name);
  const resolved: Record<string, string> = {};
  for (const [col, expr] of Object.entries(set)) {
    if (!columns.includes(col))
      throw new InvalidInputError(`set: unknown column ${JSON.stringify(col)} in ${fqnOf(entry)}`);
    resolved[col] = await resolveForEngine(ctx, String(expr), 'expression');
  }
  const where = await resolveForEngine(ctx, predicate, 'expression');
  const projected = columns.map((c) => `${resolved[c] ?? duckIdent(c)} AS ${duckIdent(c)}`).join(', ');
  await assertRowsSatisfy(ctx, entry, `SELECT ${projected} FROM ${await rawScanSql(ctx, entry)} AS _t WHERE ${where}`);
  try {
    const out = await (await ctx.delta(entry)).updateWhere(resolved, where, { userName: ctx.user });
    await touch(ctx, entry);
    return { numUpdatedRows: out.numUpdatedRows };
  } catch (err) {
    throw asInputError(err, `update of ${fqnOf(entry)}`);
  }
}
