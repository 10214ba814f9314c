import { isPlatformError } from '../../errors';
import { bindStatementParameters } from '../../sql/statement-parameters';
import type { StatementOptions, StatementResult } from '../../types';
import { classifySqlError } from '../classify';
import { readOnlyQuery } from '../sql/fragments';
import type { OpsContext } from './context';

/**
 * A workbench statement on a SQL warehouse: read-only, `:name` markers sent as the driver's named parameters
 * (typed), rows fetched in chunks up to `rowLimit`, cancelled with `op.cancel()` at the timeout or on abort.
 */
export async function executeStatement(ctx: OpsContext, sql: string, opts: StatementOptions): Promise<StatementResult> {
  const bound = bindStatementParameters(readOnlyQuery(sql), opts.parameters ?? [], (name) => `:${name}`);
  try {
    const r = await ctx.sql.executeStreaming(bound.sql, {
      parameters: bound.parameters,
      rowLimit: opts.rowLimit,
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
    });
    return {
      columns: r.columns,
      rows: r.rows.map((row) => r.columns.map((c) => row[c.name])),
      truncated: r.truncated,
    };
  } catch (err) {
    if (isPlatformError(err)) throw err;
    throw classifySqlError(err, ctx.secrets(), 'SQL statement');
  }
}
