import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { jobs } from '../schema';

export type JobRow = typeof jobs.$inferSelect;
export type NewJob = typeof jobs.$inferInsert;

/** Records a job. Idempotent on job_id (the workflow id): a retried start returns the existing row. */
export async function createJob(db: Db, job: NewJob): Promise<JobRow> {
  const [inserted] = await db.insert(jobs).values(job).onConflictDoNothing({ target: jobs.jobId }).returning();
  return inserted ?? (await getJob(db, job.jobId))!;
}

export async function getJob(db: Db, jobId: string): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(eq(jobs.jobId, jobId));
  return row;
}

export async function markJobStarted(db: Db, jobId: string, at: Date = new Date()): Promise<void> {
  await db.update(jobs).set({ status: 'running', startedAt: at }).where(eq(jobs.jobId, jobId));
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
export async function listJobs(
  db: Db,
  filter: { jobType?: string; status?: string; limit?: number; offset?: number } = {},
): Promise<JobRow[]> {
  const conditions: SQL[] = [];
  if (filter.jobType) conditions.push(eq(jobs.jobType, filter.jobType));
  if (filter.status) conditions.push(eq(jobs.status, filter.status));
  return db
    .select()
    .from(jobs)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(jobs.createdAt), desc(jobs.jobId))
    .limit(filter.limit ?? 100)
    .offset(filter.offset ?? 0);
}
