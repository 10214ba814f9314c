import { asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { rollbackEntries, rollbackLogs } from '../schema';

export type RollbackLogRow = typeof rollbackLogs.$inferSelect;
export type RollbackEntryRow = typeof rollbackEntries.$inferSelect;
export type RollbackEntryInput = Omit<typeof rollbackEntries.$inferInsert, 'id' | 'rollbackId' | 'seq'>;
export type RollbackLog = RollbackLogRow & { entries: RollbackEntryRow[] };

export async function createRollbackLog(
  db: Db,
  log: { jobId: string; destinationCatalog?: string | null },
): Promise<RollbackLogRow> {
  const [row] = await db.insert(rollbackLogs).values(log).returning();
  return row;
}

/**
 * Records objects before the job changes them. Idempotent per object: a retried activity recording the same
 * table again keeps the first (pre-change) state, which is the one a rollback must restore.
 */
export async function recordRollbackEntries(db: Db, rollbackId: string, entries: RollbackEntryInput[]): Promise<void> {
  if (entries.length === 0) return;
  await db.transaction(async (tx) => {
    const existing = await tx
      .select({ seq: rollbackEntries.seq })
      .from(rollbackEntries)
      .where(eq(rollbackEntries.rollbackId, rollbackId))
      .orderBy(desc(rollbackEntries.seq))
      .limit(1);
    const start = (existing[0]?.seq ?? 0) + 1;
    await tx
      .insert(rollbackEntries)
      .values(entries.map((e, i) => ({ ...e, rollbackId, seq: start + i })))
      .onConflictDoNothing();
  });
}

/** The log with its entries in recording order (undo walks them backwards). */
export async function getRollbackLog(db: Db, id: string): Promise<RollbackLog | undefined> {
  const [log] = await db.select().from(rollbackLogs).where(eq(rollbackLogs.id, id));
  if (!log) return undefined;
  const entries = await db
    .select()
    .from(rollbackEntries)
    .where(eq(rollbackEntries.rollbackId, id))
    .orderBy(asc(rollbackEntries.seq));
  return { ...log, entries };
}

export async function rollbackLogsForJob(db: Db, jobId: string): Promise<RollbackLogRow[]> {
  return db.select().from(rollbackLogs).where(eq(rollbackLogs.jobId, jobId)).orderBy(asc(rollbackLogs.createdAt));
}

/** Newest first. */
export async function listRollbackLogs(db: Db, limit = 100): Promise<RollbackLogRow[]> {
  return db.select().from(rollbackLogs).orderBy(desc(rollbackLogs.createdAt)).limit(limit);
}

export async function setRollbackStatus(db: Db, id: string, status: string, at: Date = new Date()): Promise<void> {
  await db.update(rollbackLogs).set({ status, completedAt: at }).where(eq(rollbackLogs.id, id));
}
