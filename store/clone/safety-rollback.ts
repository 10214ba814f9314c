import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { rollbackEntries, rollbackLogs, rollbackTargets } from '../schema';

export type RollbackTargetRow = typeof rollbackTargets.$inferSelect;

/**
 * The rollback log of one target of a job, created on first use. Safe under concurrent activities: the unique
 * (job, target) key decides the winner and the loser reads the winner's log.
 */
export async function ensureRollbackLog(
  db: Db,
  t: {
    jobId: string;
    targetLabel: string;
    workspace: Record<string, unknown>;
    sourceCatalog: string;
    destinationCatalog: string;
  },
): Promise<string> {
  const existing = await findRollbackTarget(db, t.jobId, t.targetLabel);
  if (existing) return existing.rollbackId;
  return db.transaction(async (tx) => {
    const [log] = await tx
      .insert(rollbackLogs)
      .values({ jobId: t.jobId, destinationCatalog: t.destinationCatalog })
      .returning();
    const inserted = await tx
      .insert(rollbackTargets)
      .values({
        rollbackId: log.id,
        jobId: t.jobId,
        targetLabel: t.targetLabel,
        workspace: t.workspace,
        sourceCatalog: t.sourceCatalog,
      })
      .onConflictDoNothing()
      .returning();
    if (inserted.length > 0) return log.id;
    await tx.delete(rollbackLogs).where(eq(rollbackLogs.id, log.id));
    return (await findRollbackTarget(tx as unknown as Db, t.jobId, t.targetLabel))!.rollbackId;
  });
}

export async function findRollbackTarget(
  db: Db,
  jobId: string,
  targetLabel: string,
): Promise<RollbackTargetRow | undefined> {
  const [row] = await db
    .select()
    .from(rollbackTargets)
    .where(and(eq(rollbackTargets.jobId, jobId), eq(rollbackTargets.targetLabel, targetLabel)));
  return row;
}

export async function getRollbackTarget(db: Db, rollbackId: string): Promise<RollbackTargetRow | undefined> {
  const [row] = await db.select().from(rollbackTargets).where(eq(rollbackTargets.rollbackId, rollbackId));
  return row;
}

export async function setRollbackResult(
  db: Db,
  rollbackId: string,
  status: string,
  result: Record<string, unknown>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(rollbackTargets).set({ result }).where(eq(rollbackTargets.rollbackId, rollbackId));
    await tx.update(rollbackLogs).set({ status, completedAt: new Date() }).where(eq(rollbackLogs.id, rollbackId));
  });
}

export async function setRollbackState(db: Db, rollbackId: string, status: string): Promise<void> {
  await db.update(rollbackLogs).set({ status }).where(eq(rollbackLogs.id, rollbackId));
}

export interface RollbackLogListing {
  log: typeof rollbackLogs.$inferSelect;
  target: RollbackTargetRow | null;
  entries: { objectType: string; existed: boolean }[];
}

/** Newest first, each with what it recorded (for counts) and its target. */
export async function listRollbackLogsWithEntries(
  db: Db,
  opts: { jobId?: string; limit?: number; offset?: number } = {},
): Promise<RollbackLogListing[]> {
  const logs = await db
    .select()
    .from(rollbackLogs)
    .where(opts.jobId ? eq(rollbackLogs.jobId, opts.jobId) : sql`true`)
    .orderBy(desc(rollbackLogs.createdAt))
    .limit(opts.limit ?? 100)
    .offset(opts.offset ?? 0);
  if (logs.length === 0) return [];
  const ids = logs.map((l) => l.id);
  const [targets, entries] = await Promise.all([
    db.select().from(rollbackTargets).where(inArray(rollbackTargets.rollbackId, ids)),
    db
      .select({
        rollbackId: rollbackEntries.rollbackId,
        objectType: rollbackEntries.objectType,
        existed: rollbackEntries.existed,
      })
      .from(rollbackEntries)
      .where(inArray(rollbackEntries.rollbackId, ids)),
  ]);
  return logs.map((log) => ({
    log,
    target: targets.find((t) => t.rollbackId === log.id) ?? null,
    entries: entries.filter((e) => e.rollbackId === log.id),
  }));
}
