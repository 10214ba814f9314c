import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { preparedPerDb } from '../prepared';
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

export interface CloneProgressCounts {
  cloned: number;
  failed: number;
  skipped: number;
  bytes: number;
  schemasDone: number;
}

/** What a clone job has done so far, from its recorded table results and schema events. */
export async function cloneProgressCounts(db: Db, jobId: string): Promise<CloneProgressCounts> {
  return (await cloneProgressCountsOf(db, [jobId])).get(jobId)!;
}

const progressCountsStmt = preparedPerDb((db) => {
  // The ids travel as one array parameter, so one prepared text serves any number of jobs.
  const ids = sql`any(${sql.placeholder('jobIds')}::text[])`;
  return db
    .select({
      jobId: cloneJobTables.jobId,
      kind: cloneJobTables.status,
      n: sql<number>`count(*)::int`,
      bytes: sql<number>`coalesce(sum(${cloneJobTables.bytesCopied}), 0)::bigint`,
    })
    .from(cloneJobTables)
    .where(sql`${cloneJobTables.jobId} = ${ids}`)
    .groupBy(cloneJobTables.jobId, cloneJobTables.status)
    .unionAll(
      db
        .select({
          jobId: runLogs.jobId,
          kind: sql<string>`'schema_finished'`,
          n: sql<number>`count(*)::int`,
          bytes: sql<number>`0::bigint`,
        })
        .from(runLogs)
        .where(and(sql`${runLogs.jobId} = ${ids}`, sql`${runLogs.data}->>'event' = 'schema_finished'`))
        .groupBy(runLogs.jobId),
    )
    .prepare('lakeward_clone_progress_counts');
});

/**
 * The progress counts of many clone jobs (one job's record, or a page of the jobs list) in one statement:
 * table results grouped by job and status, and finished schemas grouped by job. Every id gets an entry.
 */
export async function cloneProgressCountsOf(db: Db, jobIds: string[]): Promise<Map<string, CloneProgressCounts>> {
  const counts = new Map<string, CloneProgressCounts>(
    jobIds.map((id) => [id, { cloned: 0, failed: 0, skipped: 0, bytes: 0, schemasDone: 0 }]),
  );
  if (jobIds.length === 0) return counts;
  const rows = await progressCountsStmt(db).execute({ jobIds });
  for (const r of rows) {
    const c = counts.get(r.jobId)!;
    if (r.kind === 'schema_finished') c.schemasDone = Number(r.n);
    else if (r.kind === 'cloned' || r.kind === 'failed' || r.kind === 'skipped') c[r.kind] = Number(r.n);
    c.bytes += Number(r.bytes);
  }
  return counts;
}
