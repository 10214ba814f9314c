import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { preparedPerDb } from '../prepared';
import { runLogs } from '../schema';

export type RunLogRow = typeof runLogs.$inferSelect;
export type RunLogLine = { level?: string; message: string; data?: Record<string, unknown> | null; ts?: Date };

/** Appends lines to a job's run log in one statement; their order is kept. */
export async function appendRunLog(db: Db, jobId: string, lines: RunLogLine[]): Promise<void> {
  if (lines.length === 0) return;
  await db.insert(runLogs).values(lines.map((l) => ({ jobId, ...l })));
}

const readRunLogStmt = preparedPerDb((db) =>
  db
    .select()
    .from(runLogs)
    .where(and(eq(runLogs.jobId, sql.placeholder('jobId')), gt(runLogs.id, sql.placeholder('afterId'))))
    .orderBy(asc(runLogs.id))
    .limit(sql.placeholder('limit'))
    .prepare('lakeward_read_run_log'),
);

/** A job's log in order; pass the last id seen as `afterId` to read only newer lines (ids start at 1). */
export async function readRunLog(
  db: Db,
  jobId: string,
  opts: { afterId?: number; limit?: number } = {},
): Promise<RunLogRow[]> {
  return readRunLogStmt(db).execute({ jobId, afterId: opts.afterId ?? 0, limit: opts.limit ?? 10_000 });
}
