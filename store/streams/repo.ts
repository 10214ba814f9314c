import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { syncStreams } from '../schema';

export type StreamRow = typeof syncStreams.$inferSelect;
export type NewStream = typeof syncStreams.$inferInsert;

export async function createStream(db: Db, row: NewStream): Promise<StreamRow> {
  const [created] = await db.insert(syncStreams).values(row).returning();
  return created;
}

export async function getStream(db: Db, streamId: string): Promise<StreamRow | undefined> {
  const [row] = await db.select().from(syncStreams).where(eq(syncStreams.streamId, streamId));
  return row;
}

export async function listStreams(db: Db): Promise<StreamRow[]> {
  return db.select().from(syncStreams).orderBy(asc(syncStreams.createdAt), asc(syncStreams.streamId));
}

export async function updateStream(
  db: Db,
  streamId: string,
  set: Partial<Omit<StreamRow, 'streamId' | 'createdAt'>>,
): Promise<void> {
  await db
    .update(syncStreams)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(syncStreams.streamId, streamId));
}

/**
 * One table's applied source version, merged into the row (never moves backwards: a retried cycle that
 * re-applies an older range cannot lower it).
 */
export async function recordApplied(db: Db, streamId: string, table: string, version: number): Promise<void> {
  await db
    .update(syncStreams)
    .set({
      applied: sql`${syncStreams.applied} || jsonb_build_object(${table}::text, greatest(coalesce((${syncStreams.applied} ->> ${table}::text)::bigint, -1), ${version}::bigint))`,
      updatedAt: new Date(),
    })
    .where(eq(syncStreams.streamId, streamId));
}

/** The end of a cycle: source versions seen, the cycle count and time; a starting stream is now running. */
export async function recordCycle(
  db: Db,
  streamId: string,
  c: { sourceVersions: Record<string, number>; error: string | null; at: Date },
): Promise<void> {
  await db
    .update(syncStreams)
    .set({
      sourceVersions: c.sourceVersions,
      error: c.error,
      lastCycleAt: c.at,
      cycles: sql`${syncStreams.cycles} + 1`,
      status: sql`case when ${syncStreams.status} = 'starting' then 'running' else ${syncStreams.status} end`,
      updatedAt: new Date(),
    })
    .where(eq(syncStreams.streamId, streamId));
}
