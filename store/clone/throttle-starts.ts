import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { throttleStarts } from '../schema';

/**
 * Claims a start slot for one table of a job under a tables-per-minute cap. Serialised per job by a
 * transaction-scoped advisory lock, so concurrent activities (on any worker process sharing the store) never
 * exceed the cap. Times come from the database's clock unless `at` is given, so workers on hosts whose clocks
 * disagree still share one 60-second window.
 * Returns 0 when the table may start now (the start is recorded), else the milliseconds to wait.
 * A table that already claimed a slot (a retried activity) starts without another claim.
 */
export async function claimTableStart(
  db: Db,
  jobId: string,
  tableKey: string,
  perMinute: number,
  at?: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`throttle:${jobId}`}))`);
    const now = at ?? (await databaseNow(tx));
    const [mine] = await tx
      .select()
      .from(throttleStarts)
      .where(and(eq(throttleStarts.jobId, jobId), eq(throttleStarts.tableKey, tableKey)));
    if (mine) return 0;
    const windowStart = new Date(now.getTime() - 60_000);
    const recent = await tx
      .select({ startedAt: throttleStarts.startedAt })
      .from(throttleStarts)
      .where(and(eq(throttleStarts.jobId, jobId), gt(throttleStarts.startedAt, windowStart)))
      .orderBy(throttleStarts.startedAt);
    if (recent.length >= perMinute)
      return recent[recent.length - perMinute].startedAt.getTime() + 60_000 - now.getTime();
    await tx.insert(throttleStarts).values({ jobId, tableKey, startedAt: now });
    return 0;
  });
}

/** The database's clock (one clock for every worker). */
async function databaseNow(tx: Pick<Db, 'select'>): Promise<Date> {
  const ms = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::float8`;
  const [row] = await tx.select({ ms }).from(sql`(select 1) as one`);
  return new Date(Number(row.ms));
}
