import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { preparedPerDb } from '../prepared';
import { jobs } from '../schema';

export type JobRow = typeof jobs.$inferSelect;
export type NewJob = typeof jobs.$inferInsert;

/** Records a job. Idempotent on job_id (the workflow id): a retried start returns the existing row. */
export async function createJob(db: Db, job: NewJob): Promise<JobRow> {
  const [inserted] = await db.insert(jobs).values(job).onConflictDoNothing({ target: jobs.jobId }).returning();
  return inserted ?? (await getJob(db, job.jobId))!;
}

const getJobStmt = preparedPerDb((db) =>
  db
    .select()
    .from(jobs)
    .where(eq(jobs.jobId, sql.placeholder('jobId')))
    .prepare('lakeward_get_job'),
);

export async function getJob(db: Db, jobId: string): Promise<JobRow | undefined> {
  const [row] = await getJobStmt(db).execute({ jobId });
  return row;
}

/** queued → running; a job already cancelling (or ended) keeps its status, and gets its start time. */
export async function markJobStarted(
  db: Db,
  jobId: string,
  at: Date = new Date(),
): Promise<{ jobType: string; createdAt: Date } | undefined> {
  // Returns the row only the first time (started_at was unset), so a retried activity counts one start.
  const [row] = await db
    .update(jobs)
    .set({ status: sql`CASE WHEN ${jobs.status} = 'queued' THEN 'running' ELSE ${jobs.status} END`, startedAt: at })
    .where(and(eq(jobs.jobId, jobId), isNull(jobs.startedAt)))
    .returning({ jobType: jobs.jobType, createdAt: jobs.createdAt });
  return row;
}

/**
 * Marks a job `cancelling` (from the cancel request until its end is recorded). Returns false when the job has
 * already ended, so the caller can answer 409.
 */
export async function markJobCancelling(db: Db, jobId: string, at: Date = new Date()): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ status: 'cancelling', cancelRequestedAt: at })
    .where(and(eq(jobs.jobId, jobId), inArray(jobs.status, ['queued', 'running', 'cancelling'])))
    .returning({ jobId: jobs.jobId });
  return rows.length > 0;
}

/** The job's live progress, as the job last reported it (merged into what was there). */
export async function setJobProgress(db: Db, jobId: string, progress: Record<string, unknown>): Promise<void> {
  await db
    .update(jobs)
    .set({ progress: sql`coalesce(${jobs.progress}, '{}'::jsonb) || ${JSON.stringify(progress)}::jsonb` })
    .where(eq(jobs.jobId, jobId));
}

/** Final state of a job: status, summary and error land together. */
export async function finishJob(
  db: Db,
  jobId: string,
  outcome: { status: string; summary?: Record<string, unknown> | null; error?: string | null; at?: Date },
): Promise<JobRow | undefined> {
  const [row] = await db
    .update(jobs)
    .set({
      status: outcome.status,
      summary: outcome.summary ?? null,
      error: outcome.error ?? null,
      completedAt: outcome.at ?? new Date(),
    })
    .where(eq(jobs.jobId, jobId))
    .returning();
  return row;
}

/** Newest first. */
/** The list's four shapes (filtered by type, status, both or neither), each prepared once per handle. */
const listJobsStmt = (byType: boolean, byStatus: boolean) =>
  preparedPerDb((db) => {
    const conditions: SQL[] = [];
    if (byType) conditions.push(eq(jobs.jobType, sql.placeholder('jobType')));
    if (byStatus) conditions.push(eq(jobs.status, sql.placeholder('status')));
    return db
      .select()
      .from(jobs)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(jobs.createdAt), desc(jobs.jobId))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(`lakeward_list_jobs_${byType ? 't' : ''}${byStatus ? 's' : ''}`);
  });
const listJobsStmts = [
  [listJobsStmt(false, false), listJobsStmt(false, true)],
  [listJobsStmt(true, false), listJobsStmt(true, true)],
];

export async function listJobs(
  db: Db,
  filter: { jobType?: string; status?: string; limit?: number; offset?: number } = {},
): Promise<JobRow[]> {
  const stmt = listJobsStmts[filter.jobType ? 1 : 0][filter.status ? 1 : 0](db);
  return stmt.execute({
    jobType: filter.jobType,
    status: filter.status,
    limit: filter.limit ?? 100,
    offset: filter.offset ?? 0,
  });
}

/** How many jobs wait in the queue (status queued), by job type (types with none are absent). */
export async function countQueuedByType(db: Db): Promise<Record<string, number>> {
  const rows = await db
    .select({ jobType: jobs.jobType, n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(eq(jobs.status, 'queued'))
    .groupBy(jobs.jobType);
  return Object.fromEntries(rows.map((r) => [r.jobType, Number(r.n)]));
}

/** Queue positions from the store: the type's queued jobs oldest first, and how many hold a run slot now. */
export async function queueOrder(db: Db, jobType: string): Promise<{ queued: string[]; active: number }> {
  const rows = await db
    .select({ jobId: jobs.jobId, status: jobs.status })
    .from(jobs)
    .where(and(eq(jobs.jobType, jobType), inArray(jobs.status, ['queued', 'running', 'cancelling'])))
    .orderBy(asc(jobs.createdAt), asc(jobs.jobId));
  return {
    queued: rows.filter((r) => r.status === 'queued').map((r) => r.jobId),
    active: rows.filter((r) => r.status !== 'queued').length,
  };
}
