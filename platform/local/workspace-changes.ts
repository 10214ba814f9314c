import { InvalidInputError } from '../errors';
import type { ChangeRow, TableRef } from '../types';
import { withDuck } from './duck';
import { toQueryResult } from './sql/result';
import { fqnOf, type LocalContext } from './workspace-context';

/** Change data feed: only for Delta tables with delta.enableChangeDataFeed = true, like Databricks. */
export async function changesSqlOf(ctx: LocalContext, ref: TableRef, start: number, end?: number): Promise<string> {
  const r = ctx.ref(ref);
  if (!Number.isInteger(start) || start < 0)
    throw new InvalidInputError(`startVersion must be a non-negative integer, got ${start}`);
  if (end !== undefined && (!Number.isInteger(end) || end < start))
    throw new InvalidInputError(`endVersion must be an integer >= startVersion, got ${end}`);
  const entry = await ctx.table(r);
  const table = await ctx.delta(entry);
  const config = (await table.snapshot()).metadata.configuration;
  if (config['delta.enableChangeDataFeed'] !== 'true') {
    throw new InvalidInputError(
      `change data feed is not enabled on ${fqnOf(r)} (set delta.enableChangeDataFeed = true)`,
    );
  }
  return table.changesSql(start, end);
}

export async function tableChanges(
  ctx: LocalContext,
  ref: TableRef,
  start: number,
  end?: number,
): Promise<ChangeRow[]> {
  const sql = await changesSqlOf(ctx, ref, start, end);
  const result = await withDuck(async (conn) =>
    toQueryResult(await conn.runAndReadAll(`SELECT * FROM ${sql} AS _c ORDER BY _commit_version`)),
  );
  return result.rows as ChangeRow[];
}
