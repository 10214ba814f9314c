import { and, count, desc, eq, max } from 'drizzle-orm';
import type { Db } from '../db';
import { analysisQueryLog } from './tables';

export interface QueryRead {
  workspace: string;
  catalog: string;
  schema: string;
  table: string;
  columns: string[];
  purpose: string;
}

export async function recordQueryRead(db: Db, r: QueryRead): Promise<void> {
  await db.insert(analysisQueryLog).values({
    workspace: r.workspace,
    catalogName: r.catalog.toLowerCase(),
    schemaName: r.schema.toLowerCase(),
    tableName: r.table.toLowerCase(),
    columns: r.columns,
    purpose: r.purpose,
  });
}

const scope = (workspace: string, catalog: string, schema?: string) =>
  and(
    eq(analysisQueryLog.workspace, workspace),
    eq(analysisQueryLog.catalogName, catalog.toLowerCase()),
    schema === undefined ? undefined : eq(analysisQueryLog.schemaName, schema.toLowerCase()),
  );

/** Reads per table, most read first. */
export async function tableReads(
  db: Db,
  workspace: string,
  catalog: string,
  schema: string | undefined,
  limit: number,
) {
  return db
    .select({
      schema: analysisQueryLog.schemaName,
      table: analysisQueryLog.tableName,
      reads: count(),
      last: max(analysisQueryLog.ranAt),
    })
    .from(analysisQueryLog)
    .where(scope(workspace, catalog, schema))
    .groupBy(analysisQueryLog.schemaName, analysisQueryLog.tableName)
    .orderBy(desc(count()), analysisQueryLog.schemaName, analysisQueryLog.tableName)
    .limit(limit);
}

/** The newest reads' column lists (bounded), for per-column counts. */
export async function columnReads(db: Db, workspace: string, catalog: string, schema: string | undefined) {
  return db
    .select({
      schema: analysisQueryLog.schemaName,
      table: analysisQueryLog.tableName,
      columns: analysisQueryLog.columns,
    })
    .from(analysisQueryLog)
    .where(scope(workspace, catalog, schema))
    .orderBy(desc(analysisQueryLog.id))
    .limit(10_000);
}
