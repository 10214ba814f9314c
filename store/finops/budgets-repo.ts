import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { finopsBudgetAlerts, finopsBudgets, notifications } from '../schema';

export type BudgetRow = typeof finopsBudgets.$inferSelect;
export type NewBudget = typeof finopsBudgets.$inferInsert;
export type BudgetAlertRow = typeof finopsBudgetAlerts.$inferSelect;

export async function insertBudget(db: Db, b: NewBudget): Promise<BudgetRow> {
  const [row] = await db.insert(finopsBudgets).values(b).returning();
  return row;
}

export async function listBudgets(db: Db): Promise<BudgetRow[]> {
  return db.select().from(finopsBudgets).orderBy(asc(finopsBudgets.createdAt), asc(finopsBudgets.id));
}

export async function getBudget(db: Db, id: string): Promise<BudgetRow | undefined> {
  const [row] = await db.select().from(finopsBudgets).where(eq(finopsBudgets.id, id));
  return row;
}

export async function updateBudget(db: Db, id: string, set: Partial<NewBudget>): Promise<BudgetRow | undefined> {
  const [row] = await db
    .update(finopsBudgets)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(finopsBudgets.id, id))
    .returning();
  return row;
}

export async function deleteBudget(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(finopsBudgets).where(eq(finopsBudgets.id, id)).returning({ id: finopsBudgets.id });
  return rows.length > 0;
}

/**
 * Records that `budget` reached `level` in `period` and, only when that row is new, its `budget_alert`
 * notification — one transaction, so a level alerts once however often (or concurrently) evaluation runs.
 */
export async function raiseBudgetAlert(
  db: Db,
  a: { budgetId: string; period: string; level: string; utilizationPct: number; actualUsd: number; message: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(finopsBudgetAlerts)
      .values({
        budgetId: a.budgetId,
        period: a.period,
        level: a.level,
        utilizationPct: a.utilizationPct,
        actualUsd: a.actualUsd,
      })
      .onConflictDoNothing()
      .returning({ level: finopsBudgetAlerts.level });
    if (!rows.length) return false;
    await tx.insert(notifications).values({ type: 'budget_alert', message: a.message, status: a.level });
    return true;
  });
}

export async function listBudgetAlerts(db: Db, budgetId: string): Promise<BudgetAlertRow[]> {
  return db
    .select()
    .from(finopsBudgetAlerts)
    .where(eq(finopsBudgetAlerts.budgetId, budgetId))
    .orderBy(asc(finopsBudgetAlerts.createdAt));
}

/**
 * Claims the budget's alerts whose webhook is not delivered yet (at most `maxAttempts` tries; a claim older
 * than `staleMs` is taken over), so two evaluations running at once never POST the same alert together.
 */
export async function claimUndeliveredAlerts(
  db: Db,
  budgetId: string,
  now: Date,
  maxAttempts = 5,
  staleMs = 60_000,
): Promise<BudgetAlertRow[]> {
  return db
    .update(finopsBudgetAlerts)
    .set({ webhookClaimedAt: now, webhookAttempts: sql`${finopsBudgetAlerts.webhookAttempts} + 1` })
    .where(
      and(
        eq(finopsBudgetAlerts.budgetId, budgetId),
        isNull(finopsBudgetAlerts.webhookDeliveredAt),
        lt(finopsBudgetAlerts.webhookAttempts, maxAttempts),
        or(
          isNull(finopsBudgetAlerts.webhookClaimedAt),
          lt(finopsBudgetAlerts.webhookClaimedAt, new Date(now.getTime() - staleMs)),
        ),
      ),
    )
    .returning();
}

export async function settleAlertWebhook(db: Db, a: BudgetAlertRow, error: string | null, at: Date): Promise<void> {
  await db
    .update(finopsBudgetAlerts)
    .set(error ? { webhookError: error, webhookClaimedAt: null } : { webhookDeliveredAt: at, webhookError: null })
    .where(
      and(
        eq(finopsBudgetAlerts.budgetId, a.budgetId),
        eq(finopsBudgetAlerts.period, a.period),
        eq(finopsBudgetAlerts.level, a.level),
      ),
    );
}
