import { InvalidInputError } from '../errors';
import { netChanges } from '../merge-changes';
import type { ChangeRow, MergeMetrics, TableRef } from '../types';
import { duckIdent, duckString } from './duck';
import { MERGE_ACTION_COLUMN } from './delta/merge';
import { assertRowsSatisfy } from './workspace-constraints';
import { fqnOf, type LocalContext } from './workspace-context';
import { asInputError, rowsSelect } from './workspace-write-sql';

/**
 * Applies change-data-feed rows to a Delta table by key in one atomic commit (a MERGE): per key the last
 * change wins; inserts and post-images replace or add the row, deletes remove it. CHECK constraints first.
 */
export async function mergeChanges(
  ctx: LocalContext,
  ref: TableRef,
  changes: ChangeRow[],
  opts: { keys: string[] },
): Promise<MergeMetrics> {
  const entry = await ctx.table(ctx.ref(ref));
  if (entry.format !== 'DELTA')
    throw new InvalidInputError(`MERGE needs a Delta table; ${fqnOf(entry)} is ${entry.format}`);
  const columns = await ctx.columns(entry);
  const keys = opts?.keys;
  if (!Array.isArray(keys) || keys.length === 0)
    throw new InvalidInputError('keys: at least one key column is required');
  for (const k of keys) {
    if (!columns.some((c) => c.name === k))
      throw new InvalidInputError(`keys: ${JSON.stringify(k)} is not a column of ${fqnOf(entry)}`);
  }
  const { upserts, deletes } = netChanges(changes, keys);
  if (upserts.length + deletes.length === 0) return { numInsertedRows: 0, numUpdatedRows: 0, numDeletedRows: 0 };
  const parts: string[] = [];
  const typed = (rows: Record<string, unknown>[], action: string) =>
    `SELECT *, ${duckString(action)} AS ${duckIdent(MERGE_ACTION_COLUMN)} FROM (${rowsSelect(columns, rows)}) AS _r`;
  if (upserts.length > 0) {
    await assertRowsSatisfy(ctx, entry, rowsSelect(columns, upserts));
    parts.push(typed(upserts, 'upsert'));
  }
  if (deletes.length > 0) parts.push(typed(deletes, 'delete'));
  try {
    const out = await (await ctx.delta(entry)).mergeRows(parts.join(' UNION ALL '), keys, { userName: ctx.user });
    await ctx.store.update(ctx.store.entryFile('tables', entry), fqnOf(entry), () => undefined);
    return {
      numInsertedRows: out.numInsertedRows,
      numUpdatedRows: out.numUpdatedRows,
      numDeletedRows: out.numDeletedRows,
    };
  } catch (err) {
    throw asInputError(err, `merge into ${fqnOf(entry)}`);
  }
}
