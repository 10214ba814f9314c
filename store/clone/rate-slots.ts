import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { cloneRateSlots } from '../schema';

/**
 * Reserves the next request slot of a job under a `perSecond` rate and returns how many milliseconds the caller
 * waits before its request may go out (0 = now). One atomic upsert per call, on the database's clock: every
 * worker sharing the store draws from the same row, so the job's rate holds across worker processes (and
 * hosts, whatever their clocks say). Slots are 1/perSecond apart and an idle job gets no credit (a bucket of
 * capacity 1): requests are spaced evenly, never burst.
 */
export async function reserveRateSlot(db: Db, jobId: string, perSecond: number): Promise<number> {
  const gapMs = 1000 / perSecond;
  const gap = sql`(${gapMs}::float8 * interval '1 millisecond')`;
  const [row] = await db
    .insert(cloneRateSlots)
    .values({ jobId, nextAt: sql`clock_timestamp() + ${gap}` })
    .onConflictDoUpdate({
      target: cloneRateSlots.jobId,
      set: { nextAt: sql`greatest(${cloneRateSlots.nextAt}, clock_timestamp()) + ${gap}` },
    })
    .returning({
      // next_at is the new value here: this caller's slot is one gap before it.
      waitMs: sql<number>`greatest(0, extract(epoch from (${cloneRateSlots.nextAt} - clock_timestamp())) * 1000 - ${gapMs}::float8)::float8`,
    });
  return Math.ceil(Number(row.waitMs));
}

/** Drops the slots of jobs idle for longer than `idleMs` (their next request starts at once anyway). */
export async function purgeIdleRateSlots(db: Db, idleMs = 3_600_000): Promise<void> {
  await db
    .delete(cloneRateSlots)
    .where(lt(cloneRateSlots.nextAt, sql`clock_timestamp() - ${idleMs}::float8 * interval '1 millisecond'`));
}
