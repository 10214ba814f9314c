import { and, asc, desc, eq, inArray, max, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { analysisQueryLog, cloneTableState, finopsRecommendations, jobs } from '../schema';

export type RecommendationRow = typeof finopsRecommendations.$inferSelect;
export type NewRecommendation = typeof finopsRecommendations.$inferInsert;

export async function listRecommendations(db: Db): Promise<RecommendationRow[]> {
  return db
    .select()
    .from(finopsRecommendations)
    .orderBy(desc(sql`coalesce(${finopsRecommendations.savingsUsdMonth}, -1)`), asc(finopsRecommendations.id));
}

export async function getRecommendation(db: Db, id: string): Promise<RecommendationRow | undefined> {
  const [row] = await db.select().from(finopsRecommendations).where(eq(finopsRecommendations.id, id));
  return row;
}

/** Writes a refresh's findings (the finding's fields and status; first_seen_at kept) in one transaction. */
export async function saveRefresh(
  db: Db,
  upserts: NewRecommendation[],
  missing: string[],
  resolve: string[],
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const r of upserts) {
      const { id, firstSeenAt: _first, ...set } = r;
      await tx
        .insert(finopsRecommendations)
        .values(r)
        .onConflictDoUpdate({ target: finopsRecommendations.id, set: { ...set, id } });
    }
    if (missing.length)
      await tx
        .update(finopsRecommendations)
        .set({ found: false, updatedAt: now })
        .where(inArray(finopsRecommendations.id, missing));
    if (resolve.length)
      await tx
        .update(finopsRecommendations)
        .set({ status: 'resolved', suppressedUntil: null, updatedAt: now })
        .where(inArray(finopsRecommendations.id, resolve));
  });
}

/** Changes a recommendation only while it has status `from` (one of them); the row after, or undefined. */
export async function updateRecommendation(
  db: Db,
  id: string,
  from: string[],
  set: Partial<NewRecommendation>,
): Promise<RecommendationRow | undefined> {
  const [row] = await db
    .update(finopsRecommendations)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(finopsRecommendations.id, id), inArray(finopsRecommendations.status, from)))
    .returning();
  return row;
}

/** Deep clones written into `workspace` (destination tables of DEEP clone jobs) and when each was last written. */
export async function deepClonesIn(db: Db, workspace: string) {
  return db
    .select({
      catalog: cloneTableState.destCatalog,
      schema: cloneTableState.schemaName,
      table: cloneTableState.tableName,
      clonedAt: cloneTableState.clonedAt,
    })
    .from(cloneTableState)
    .innerJoin(jobs, eq(jobs.jobId, cloneTableState.jobId))
    .where(and(eq(cloneTableState.destWorkspace, workspace), eq(jobs.cloneType, 'DEEP')));
}

/** The last time a query Lakeward ran read each table of `workspace` (`catalog.schema.table` → time). */
export async function lastReads(db: Db, workspace: string): Promise<Map<string, Date>> {
  const rows = await db
    .select({
      catalog: analysisQueryLog.catalogName,
      schema: analysisQueryLog.schemaName,
      table: analysisQueryLog.tableName,
      last: max(analysisQueryLog.ranAt),
    })
    .from(analysisQueryLog)
    .where(eq(analysisQueryLog.workspace, workspace))
    .groupBy(analysisQueryLog.catalogName, analysisQueryLog.schemaName, analysisQueryLog.tableName);
  return new Map(rows.filter((r) => r.last).map((r) => [`${r.catalog}.${r.schema}.${r.table}`, r.last as Date]));
}
