import type { FilesApi } from '../rest/files';
import type { UnityCatalogApi } from '../rest/unity-catalog';
import type { SqlRows, SqlSession } from '../session/sql-session';
import { classifySqlError } from '../classify';

/** What every operation needs: the SQL session, the REST clients and the secrets to redact. */
export interface OpsContext {
  sql: SqlSession;
  uc: UnityCatalogApi;
  files: FilesApi;
  secrets(): string[];
}

export async function run(ctx: OpsContext, sql: string): Promise<SqlRows> {
  try {
    return await ctx.sql.executeStatement(sql);
  } catch (err) {
    throw classifySqlError(err, ctx.secrets(), 'SQL statement');
  }
}

export async function rows(ctx: OpsContext, sql: string): Promise<Record<string, unknown>[]> {
  return (await run(ctx, sql)).rows;
}

export async function firstRow(ctx: OpsContext, sql: string): Promise<Record<string, unknown> | undefined> {
  return (await run(ctx, sql)).rows[0];
}
