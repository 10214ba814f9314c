import type { QueryResult } from '../../types';
import { readOnlyQuery } from '../sql/fragments';
import { run, type OpsContext } from './context';

/** The SQL workbench: read-only statements only; the warehouse applies privileges, filters and masks. */
export async function runQuery(ctx: OpsContext, sql: string): Promise<QueryResult> {
  const { columns, rows } = await run(ctx, readOnlyQuery(sql));
  return { columns, rows };
}
