import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { cloneSchedules, scheduleRuns } from '../schema';

export type ScheduleRow = typeof cloneSchedules.$inferSelect;
export type NewSchedule = typeof cloneSchedules.$inferInsert;
export type ScheduleRunRow = typeof scheduleRuns.$inferSelect;
export type NewScheduleRun = typeof scheduleRuns.$inferInsert;

export async function insertSchedule(db: Db, row: NewSchedule): Promise<ScheduleRow> {
  const [saved] = await db.insert(cloneSchedules).values(row).returning();
  return saved;
}

export async function updateSchedule(
  db: Db,
  scheduleId: string,
  patch: Partial<Omit<NewSchedule, 'scheduleId'>>,
): Promise<ScheduleRow | undefined> {
  const [row] = await db
    .update(cloneSchedules)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(cloneSchedules.scheduleId, scheduleId))
    .returning();
  return row;
}

export async function getSchedule(db: Db, scheduleId: string): Promise<ScheduleRow | undefined> {
  const [row] = await db.select().from(cloneSchedules).where(eq(cloneSchedules.scheduleId, scheduleId));
  return row;
}

export async function getScheduleByName(db: Db, name: string): Promise<ScheduleRow | undefined> {
  const [row] = await db.select().from(cloneSchedules).where(eq(cloneSchedules.name, name));
  return row;
}

/** Oldest first. */
export async function listSchedules(db: Db, kind?: string): Promise<ScheduleRow[]> {
  const q = db.select().from(cloneSchedules);
  return (kind ? q.where(eq(cloneSchedules.kind, kind)) : q).orderBy(cloneSchedules.createdAt);
}

export async function deleteSchedule(db: Db, scheduleId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(scheduleRuns).where(eq(scheduleRuns.scheduleId, scheduleId));
    await tx.delete(cloneSchedules).where(eq(cloneSchedules.scheduleId, scheduleId));
  });
}

/** Adds to the schedule's counters (clones, skipped, failed) in one statement. */
export async function bumpSchedule(
  db: Db,
  scheduleId: string,
  by: { clones?: number; skipped?: number; failed?: number },
  patch: Partial<Omit<NewSchedule, 'scheduleId'>> = {},
): Promise<ScheduleRow | undefined> {
  const [row] = await db
    .update(cloneSchedules)
    .set({
      ...patch,
      clones: sql`${cloneSchedules.clones} + ${by.clones ?? 0}`,
      skipped: sql`${cloneSchedules.skipped} + ${by.skipped ?? 0}`,
      failed: sql`${cloneSchedules.failed} + ${by.failed ?? 0}`,
      updatedAt: new Date(),
    })
    .where(eq(cloneSchedules.scheduleId, scheduleId))
    .returning();
  return row;
}

/** Records a run once (a retried activity finds it there and gets the stored row back). */
export async function insertRun(db: Db, run: NewScheduleRun): Promise<{ row: ScheduleRunRow; created: boolean }> {
  const [created] = await db.insert(scheduleRuns).values(run).onConflictDoNothing().returning();
  if (created) return { row: created, created: true };
  return { row: (await getRun(db, run.runId))!, created: false };
}

export async function getRun(db: Db, runId: string): Promise<ScheduleRunRow | undefined> {
  const [row] = await db.select().from(scheduleRuns).where(eq(scheduleRuns.runId, runId));
  return row;
}

/** The clone job a run submitted. */
export async function setRunJob(db: Db, runId: string, jobId: string, reason: string): Promise<void> {
  await db.update(scheduleRuns).set({ jobId, reason }).where(eq(scheduleRuns.runId, runId));
}

/** Ends a running run; false when it had already ended (a retried activity). */
export async function finishRun(
  db: Db,
  runId: string,
  patch: { outcome: string; reason?: string | null; endedAt?: Date },
): Promise<boolean> {
  const rows = await db
    .update(scheduleRuns)
    .set({ outcome: patch.outcome, reason: patch.reason ?? null, endedAt: patch.endedAt ?? new Date() })
    .where(and(eq(scheduleRuns.runId, runId), eq(scheduleRuns.outcome, 'running')))
    .returning({ runId: scheduleRuns.runId });
  return rows.length > 0;
}

/** Newest first. */
export async function listRuns(db: Db, scheduleId: string, limit = 50): Promise<ScheduleRunRow[]> {
  return db
    .select()
    .from(scheduleRuns)
    .where(eq(scheduleRuns.scheduleId, scheduleId))
    .orderBy(desc(scheduleRuns.startedAt))
    .limit(limit);
}
