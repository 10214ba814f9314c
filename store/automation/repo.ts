import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { ActionResult, ExecutionStatus } from '../../schemas/automation';
import type { Db } from '../db';
import { automationDispatch, playbookExecutions, playbooks } from './tables';

export type PlaybookRow = typeof playbooks.$inferSelect;
export type NewPlaybook = typeof playbooks.$inferInsert;
export type ExecutionRow = typeof playbookExecutions.$inferSelect;

export async function insertPlaybook(db: Db, p: NewPlaybook): Promise<PlaybookRow> {
  const [row] = await db.insert(playbooks).values(p).returning();
  return row;
}

export async function getPlaybook(db: Db, id: string): Promise<PlaybookRow | undefined> {
  const [row] = await db.select().from(playbooks).where(eq(playbooks.playbookId, id));
  return row;
}

export async function listPlaybooks(db: Db, q: { enabled?: boolean; triggerTypes?: string[] } = {}) {
  const where = [];
  if (q.enabled !== undefined) where.push(eq(playbooks.enabled, q.enabled));
  if (q.triggerTypes) where.push(inArray(playbooks.triggerType, q.triggerTypes));
  return db
    .select()
    .from(playbooks)
    .where(and(...where))
    .orderBy(playbooks.createdAt);
}

export async function updatePlaybook(db: Db, id: string, set: Partial<NewPlaybook>): Promise<PlaybookRow | undefined> {
  const [row] = await db
    .update(playbooks)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(playbooks.playbookId, id))
    .returning();
  return row;
}

export async function deletePlaybook(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(playbooks).where(eq(playbooks.playbookId, id)).returning();
  return rows.length > 0;
}

export async function getExecution(db: Db, id: string): Promise<ExecutionRow | undefined> {
  const [row] = await db.select().from(playbookExecutions).where(eq(playbookExecutions.executionId, id));
  return row;
}

/** Newest first. */
export async function listExecutions(db: Db, playbookId: string, limit = 100, offset = 0) {
  return db
    .select()
    .from(playbookExecutions)
    .where(eq(playbookExecutions.playbookId, playbookId))
    .orderBy(desc(playbookExecutions.startedAt), desc(playbookExecutions.executionId))
    .limit(limit)
    .offset(offset);
}

/** Statuses that count against max_executions_per_hour: every execution that ran (or is about to). */
const COUNTED: ExecutionStatus[] = ['queued', 'running', 'succeeded', 'partial', 'failed'];

/**
 * Creates an execution (idempotent on its id) and decides its status under a row lock on the playbook, so
 * concurrent executions of one playbook — in any process, before or after a restart — see each other's rows:
 * `rate_limited` when the past hour already holds max_executions_per_hour counted executions (unless `bypass`),
 * else `status` (queued, or not_matched). Returns the stored row (the first one when it already existed).
 */
export async function beginExecution(
  db: Db,
  e: {
    executionId: string;
    playbook: PlaybookRow;
    trigger: string;
    eventId: number | null;
    event: Record<string, unknown>;
    status: 'queued' | 'not_matched';
    dryRun: boolean;
    actions: ActionResult[];
    bypassLimit: boolean;
    now: Date;
  },
): Promise<ExecutionRow> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT 1 FROM playbooks WHERE playbook_id = ${e.playbook.playbookId} FOR UPDATE`);
    const [existing] = await tx
      .select()
      .from(playbookExecutions)
      .where(eq(playbookExecutions.executionId, e.executionId));
    if (existing) return existing;
    let status: ExecutionStatus = e.status;
    if (status === 'queued' && !e.bypassLimit) {
      const since = new Date(e.now.getTime() - 3600_000);
      const [{ n }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(playbookExecutions)
        .where(
          and(
            eq(playbookExecutions.playbookId, e.playbook.playbookId),
            gt(playbookExecutions.startedAt, since),
            inArray(playbookExecutions.status, COUNTED),
            eq(playbookExecutions.dryRun, false),
            sql`${playbookExecutions.trigger} <> 'manual'`,
          ),
        );
      if (Number(n) >= e.playbook.maxExecutionsPerHour) status = 'rate_limited';
    }
    const final = status === 'not_matched' || status === 'rate_limited';
    const [row] = await tx
      .insert(playbookExecutions)
      .values({
        executionId: e.executionId,
        playbookId: e.playbook.playbookId,
        playbookName: e.playbook.name,
        trigger: e.trigger,
        eventId: e.eventId,
        event: e.event,
        status,
        dryRun: e.dryRun,
        actions: final ? e.actions.map((a) => ({ ...a, status: 'skipped' as const })) : e.actions,
        startedAt: e.now,
        completedAt: final ? e.now : null,
      })
      .returning();
    return row;
  });
}

export async function setExecution(
  db: Db,
  id: string,
  set: Partial<Pick<ExecutionRow, 'status' | 'actions' | 'error' | 'completedAt'>>,
): Promise<void> {
  await db.update(playbookExecutions).set(set).where(eq(playbookExecutions.executionId, id));
}

/** Records one action's state inside the execution's actions[] (read-modify-write under a row lock). */
export async function setActionResult(db: Db, id: string, index: number, result: Partial<ActionResult>) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(playbookExecutions)
      .where(eq(playbookExecutions.executionId, id))
      .for('update');
    if (!row) return;
    const actions = [...row.actions];
    actions[index] = { ...actions[index], ...result };
    await tx.update(playbookExecutions).set({ actions }).where(eq(playbookExecutions.executionId, id));
  });
}

export async function dispatchCursor(db: Db, dispatcherId: string): Promise<number> {
  const [row] = await db.select().from(automationDispatch).where(eq(automationDispatch.dispatcherId, dispatcherId));
  return row?.lastEventId ?? 0;
}

export async function saveDispatchCursor(db: Db, dispatcherId: string, lastEventId: number): Promise<void> {
  await db
    .insert(automationDispatch)
    .values({ dispatcherId, lastEventId })
    .onConflictDoUpdate({
      target: automationDispatch.dispatcherId,
      set: { lastEventId: sql`GREATEST(${automationDispatch.lastEventId}, ${lastEventId})`, updatedAt: new Date() },
    });
}
