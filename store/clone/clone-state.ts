import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { cloneJobTables, cloneTableState, runLogs } from '../schema';

export type CloneJobTableRow = typeof cloneJobTables.$inferSelect;
export type CloneJobTableInput = Omit<typeof cloneJobTables.$inferInsert, 'updatedAt'>;
export type CloneTableStateRow = typeof cloneTableState.$inferSelect;

/** The job's record for one table on one target, if any. */
export async function getJobTable(
  db: Db,
  key: { jobId: string; target: string; schemaName: string; tableName: string },
): Promise<CloneJobTableRow | null> {
  const rows = await db
    .select()
    .from(cloneJobTables)
    .where(
      and(
        eq(cloneJobTables.jobId, key.jobId),
        eq(cloneJobTables.target, key.target),
        eq(cloneJobTables.schemaName, key.schemaName),
        eq(cloneJobTables.tableName, key.tableName),
      ),
    );
  return rows[0] ?? null;
}

/** Every table result of a job, in schema/table order. */
export async function listJobTables(db: Db, jobId: string): Promise<CloneJobTableRow[]> {
  return db
    .select()
    .from(cloneJobTables)
    .where(eq(cloneJobTables.jobId, jobId))
    .orderBy(cloneJobTables.target, cloneJobTables.schemaName, cloneJobTables.tableName);
}

/** The recorded clone state of every table of one destination schema, keyed by table name. */
export async function tableStatesForSchema(
  db: Db,
  key: { destWorkspace: string; destCatalog: string; schemaName: string },
): Promise<Map<string, CloneTableStateRow>> {
  const rows = await db
    .select()
    .from(cloneTableState)
    .where(
      and(
        eq(cloneTableState.destWorkspace, key.destWorkspace),
        eq(cloneTableState.destCatalog, key.destCatalog),
        eq(cloneTableState.schemaName, key.schemaName),
      ),
    );
  return new Map(rows.map((r) => [r.tableName, r]));
}

// Writes go through the group-committing writer in clone-writes.ts.

/** What a clone job has done so far, from its recorded table results and schema events (one read each). */
export async function cloneProgressCounts(
  db: Db,
  jobId: string,
): Promise<{ cloned: number; failed: number; skipped: number; bytes: number; schemasDone: number }> {
  const rows = await db
    .select({
      status: cloneJobTables.status,
      n: sql<number>`count(*)::int`,
      bytes: sql<number>`coalesce(sum(${cloneJobTables.bytesCopied}), 0)::bigint`,
    })
    .from(cloneJobTables)
    .where(eq(cloneJobTables.jobId, jobId))
    .groupBy(cloneJobTables.status);
  const [schemas] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(runLogs)
    .where(and(eq(runLogs.jobId, jobId), sql`${runLogs.data}->>'event' = 'schema_finished'`));
  const of = (s: string) => rows.find((r) => r.status === s);
  return {
    cloned: Number(of('cloned')?.n ?? 0),
    failed: Number(of('failed')?.n ?? 0),
    skipped: Number(of('skipped')?.n ?? 0),
    bytes: rows.reduce((b, r) => b + Number(r.bytes), 0),
    schemasDone: Number(schemas?.n ?? 0),
  };
}
