import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db';
import { jobs } from '../schema';

export interface RecordedJobRun {
  cloneType: string | null;
  seconds: number;
  bytes: number;
  tables: number;
}

/** The newest completed clone jobs (duration from start to end, bytes copied and tables cloned from the summary). */
export async function recentCloneRuns(db: Db, limit = 50): Promise<RecordedJobRun[]> {
  const rows = await db
    .select({
      cloneType: jobs.cloneType,
      startedAt: jobs.startedAt,
      completedAt: jobs.completedAt,
      summary: jobs.summary,
    })
    .from(jobs)
    .where(
      and(
        eq(jobs.jobType, 'clone'),
        eq(jobs.status, 'completed'),
        isNotNull(jobs.startedAt),
        isNotNull(jobs.completedAt),
      ),
    )
    .orderBy(desc(jobs.completedAt))
    .limit(limit);
  return rows.map((r) => ({
    cloneType: r.cloneType,
    seconds: (r.completedAt!.getTime() - r.startedAt!.getTime()) / 1000,
    bytes: Number(r.summary?.bytes_copied ?? 0),
    tables: Number(r.summary?.tables_cloned ?? 0),
  }));
}
