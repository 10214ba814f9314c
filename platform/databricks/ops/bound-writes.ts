import { isPlatformError } from '../../errors';
import type { BoundValue, ColumnDef, TableRef } from '../../types';
import { classifySqlError } from '../classify';
import { addColumnsSql, insertBoundRowSql } from '../sql/bound-writes';
import { checkRef, columnName } from '../sql/names';
import { run, type OpsContext } from './context';

export async function addColumns(ctx: OpsContext, ref: TableRef, columns: ColumnDef[]): Promise<void> {
  for (const c of columns) columnName(c.name);
  await run(ctx, addColumnsSql(checkRef(ref), columns));
}

/** One INSERT with named parameters (the streaming path is the driver's only one that binds them). */
export async function insertBoundRow(ctx: OpsContext, ref: TableRef, values: BoundValue[]): Promise<void> {
  for (const v of values) columnName(v.name);
  const { sql, parameters } = insertBoundRowSql(checkRef(ref), values);
  try {
    await ctx.sql.executeStreaming(sql, { parameters, rowLimit: 1, timeoutMs: 300_000 });
  } catch (err) {
    if (isPlatformError(err)) throw err;
    throw classifySqlError(err, ctx.secrets(), 'SQL statement');
  }
}
