import type { TableRef, TableStats, TimeTravel } from '../types';
import { duckIdent, withDuck } from './duck';
import type { TableEntry } from './metastore/types';
import { assertTimeTravel } from './workspace-clone';
import type { LocalContext } from './workspace-context';
import { rawScanSql } from './workspace-scan';

/**
 * Row counts, NULL counts and checksums read the table's data directly (no row filter or column mask):
 * they describe what is stored, so a clone and its source compare equal before security policies are copied.
 */
async function one(sql: string): Promise<Record<string, unknown>> {
  return withDuck(async (conn) => (await conn.runAndReadAll(sql)).getRowObjectsJS()[0]);
}

export async function countRows(ctx: LocalContext, entry: TableEntry, at?: TimeTravel): Promise<number> {
  return Number((await one(`SELECT count(*) AS n FROM ${await rawScanSql(ctx, entry, at)} AS _t`)).n);
}

export async function tableStats(ctx: LocalContext, ref: TableRef, at?: TimeTravel): Promise<TableStats> {
  const entry = await ctx.table(ctx.ref(ref));
  const travel = at ? assertTimeTravel(at) : undefined;
  const columns = (await ctx.columns(entry, travel)).map((c) => c.name);
  const nulls = columns.map((c, i) => `count(*) - count(${duckIdent(c)}) AS n${i}`);
  const row = await one(
    `SELECT ${['count(*) AS total', ...nulls].join(', ')} FROM ${await rawScanSql(ctx, entry, travel)} AS _t`,
  );
  return {
    rowCount: Number(row.total),
    nullCounts: Object.fromEntries(columns.map((c, i) => [c, Number(row[`n${i}`])])),
  };
}

/** `<rows>-<sum of row hashes>`: order-independent; NULLs hash as the text NULL, so they count too. */
export async function tableChecksum(ctx: LocalContext, ref: TableRef, at?: TimeTravel): Promise<string> {
  const entry = await ctx.table(ctx.ref(ref));
  const travel = at ? assertTimeTravel(at) : undefined;
  const columns = (await ctx.columns(entry, travel)).map((c) => c.name);
  const packed = `struct_pack(${columns.map((c) => `${duckIdent(c)} := ${duckIdent(c)}`).join(', ')})`;
  const row = await one(
    `SELECT count(*) AS n, coalesce(sum(hash(CAST(${packed} AS VARCHAR))), 0) AS h FROM ${await rawScanSql(ctx, entry, travel)} AS _t`,
  );
  return `${String(row.n)}-${String(row.h)}`;
}
