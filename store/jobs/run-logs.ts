import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db } from '../db';
import { runLogs } from '../schema';

export type RunLogRow = typeof runLogs.$inferSelect;
export type RunLogLine = { level?: string; message: string; data?: Record<string, unknown> | null; ts?: Date };

/** Appends lines to a job's run log in one statement; their order is kept. */
export async function appendRunLog(db: Db, jobId: string, lines: RunLogLine[]): Promise<void> {
  if (lines.length === 0) return;
  await db.insert(runLogs).values(lines.map((l) => ({ jobId, ...l })));
}

/** A job's log in order; pass the last id seen as `afterId` to read only newer lines. */
export async function readRunLog(
  db: Db,
  jobId: string,
  opts: { afterId?: number; limit?: number } = {},
): Promise<RunLogRow[]> {
  const where = opts.afterId ? and(eq(runLogs.jobId, jobId), gt(runLogs.id, opts.afterId)) : eq(runLogs.jobId, jobId);
  return db
    .select()
    .from(runLogs)
    .where(where)
    .orderBy(asc(runLogs.id))
    .limit(opts.limit ?? 10_000);
}
