import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import type { JobRow } from '../jobs/jobs';
import { preparedPerDb } from '../prepared';
import { jobs } from '../schema';
import type { CloneProgressCounts } from './clone-state';

/** A run log line as a clone record shows it (the `logLine` fields). */
export interface RecordLogLine {
  ts: Date;
  level: string;
  message: string;
}

export interface CloneRecordReads {
  row: JobRow;
  logs: RecordLogLine[];
  counts: CloneProgressCounts;
}

// The subqueries name their tables and columns themselves: drizzle writes a column of a single-table select
// without its table, which inside a correlated subquery would compare the subquery's own column with itself.
/** A clone job's progress counts, as correlated subqueries of the `jobs` row they sit beside. */
const countColumns = () => ({
  tables: sql<{ status: string; n: number; bytes: number }[]>`(
    select coalesce(json_agg(t), '[]'::json) from (
      select c.status, count(*)::int as n, coalesce(sum(c.bytes_copied), 0)::bigint as bytes
      from clone_job_tables c where c.job_id = "jobs"."job_id" group by c.status) t)`,
  schemasDone: sql<number>`(select count(*)::int from run_logs s
    where s.job_id = "jobs"."job_id" and s.data->>'event' = 'schema_finished')`,
});

/** The counts from `countColumns`, as `cloneProgressCountsOf` gives them. */
function countsOf(found: { tables: { status: string; n: number; bytes: number }[]; schemasDone: number }) {
  const counts: CloneProgressCounts = { cloned: 0, failed: 0, skipped: 0, bytes: 0, schemasDone: 0 };
  for (const t of found.tables) {
    if (t.status === 'cloned' || t.status === 'failed' || t.status === 'skipped') counts[t.status] = Number(t.n);
    counts.bytes += Number(t.bytes);
  }
  counts.schemasDone = Number(found.schemasDone);
  return counts;
}

const recordStmt = preparedPerDb((db) =>
  db
    .select({
      row: jobs,
      // The log in order, each line's time as epoch milliseconds (truncated, as the driver reads timestamps).
      logs: sql<{ ts: number; level: string; message: string }[]>`(
        select coalesce(json_agg(json_build_object('ts', floor(extract(epoch from l.ts) * 1000), 'level', l.level,
          'message', l.message) order by l.id), '[]'::json)
        from (select l.id, l.ts, l.level, l.message from run_logs l
              where l.job_id = "jobs"."job_id" order by l.id limit 10000) l)`,
      ...countColumns(),
    })
    .from(jobs)
    .where(eq(jobs.jobId, sql.placeholder('jobId')))
    .prepare('lakeward_clone_record'),
);

/**
 * Everything a clone job's record shows, in one statement (one round trip, planned once per connection): the job
 * row, its run log (at most 10,000 lines, oldest first) and its progress counts as `cloneProgressCountsOf` gives
 * them. A job polled by many clients hundreds of times a second costs the API one small query per poll.
 * Undefined when there is no such job.
 */
export async function readCloneRecord(db: Db, jobId: string): Promise<CloneRecordReads | undefined> {
  const [found] = await recordStmt(db).execute({ jobId });
  if (!found) return undefined;
  return {
    row: found.row,
    logs: found.logs.map((l) => ({ ts: new Date(Number(l.ts)), level: l.level, message: l.message })),
    counts: countsOf(found),
  };
}

/** The page's two shapes (with or without a status filter), each prepared once per handle. */
const pageStmt = (byStatus: boolean) =>
  preparedPerDb((db) =>
    db
      .select({ row: jobs, ...countColumns() })
      .from(jobs)
      .where(
        byStatus
          ? and(eq(jobs.jobType, sql.placeholder('jobType')), eq(jobs.status, sql.placeholder('status')))
          : eq(jobs.jobType, sql.placeholder('jobType')),
      )
      .orderBy(desc(jobs.createdAt), desc(jobs.jobId))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(`lakeward_clone_jobs_page${byStatus ? '_s' : ''}`),
  );
const pageStmts = [pageStmt(false), pageStmt(true)];

/**
 * A page of a job type's rows, newest first as `listJobs` orders them, each with its clone progress counts, in
 * one statement: a jobs list costs one round trip to the store, not one for the rows and one for their counts.
 */
export async function readCloneJobsPage(
  db: Db,
  filter: { jobType: string; status?: string; limit: number; offset: number },
): Promise<{ row: JobRow; counts: CloneProgressCounts }[]> {
  const found = await pageStmts[filter.status ? 1 : 0](db).execute({
    jobType: filter.jobType,
    status: filter.status,
    limit: filter.limit,
    offset: filter.offset,
  });
  return found.map((f) => ({ row: f.row, counts: countsOf(f) }));
}
