import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { aiUsage } from './tables';

export type AiUsageRow = typeof aiUsage.$inferSelect;
export type AiBackend = 'template' | 'serving_endpoint' | 'external';

export interface Reservation {
  granted: boolean;
  /** Why no call may be made: a budget of 0 (`disabled`) or fewer tokens left than max_tokens (`budget`). */
  reason?: 'disabled' | 'budget';
  tokensCharged: number;
  remaining: number;
}

/** A new usage row for a request or a job (budget 0 disables AI for it). Creating an existing id changes nothing. */
export async function createUsage(
  db: Db,
  row: { id: string; route: string; budget: number; jobId?: string | null },
): Promise<AiUsageRow> {
  await db
    .insert(aiUsage)
    .values({ id: row.id, route: row.route, budget: row.budget, jobId: row.jobId ?? null })
    .onConflictDoNothing();
  const found = await getUsage(db, row.id);
  if (!found) throw new Error(`ai_usage ${row.id} was not created`);
  return found;
}

export async function getUsage(db: Db, id: string): Promise<AiUsageRow | null> {
  const [found] = await db.select().from(aiUsage).where(eq(aiUsage.id, id));
  return found ?? null;
}

/**
 * Reserves (and charges) one call's full max_tokens in a single conditional UPDATE, so concurrent activities of one
 * job can never spend more than the budget together. Not granted: no call may be made and the template answers.
 */
export async function reserveTokens(db: Db, usageId: string, maxTokens: number): Promise<Reservation> {
  if (!Number.isInteger(maxTokens) || maxTokens <= 0) throw new RangeError('max_tokens must be a positive integer');
  const [granted] = await db
    .update(aiUsage)
    .set({
      tokensCharged: sql`${aiUsage.tokensCharged} + ${maxTokens}`,
      calls: sql`${aiUsage.calls} + 1`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(aiUsage.id, usageId),
        sql`${aiUsage.budget} > 0`,
        gte(sql`${aiUsage.budget} - ${aiUsage.tokensCharged}`, maxTokens),
      ),
    )
    .returning({ budget: aiUsage.budget, tokensCharged: aiUsage.tokensCharged });
  if (granted) {
    return { granted: true, tokensCharged: granted.tokensCharged, remaining: granted.budget - granted.tokensCharged };
  }
  const [denied] = await db
    .update(aiUsage)
    .set({ budgetDenials: sql`${aiUsage.budgetDenials} + 1`, updatedAt: sql`now()` })
    .where(eq(aiUsage.id, usageId))
    .returning({ budget: aiUsage.budget, tokensCharged: aiUsage.tokensCharged });
  if (!denied) throw new Error(`ai_usage ${usageId} does not exist`);
  return {
    granted: false,
    reason: denied.budget <= 0 ? 'disabled' : 'budget',
    tokensCharged: denied.tokensCharged,
    remaining: Math.max(0, denied.budget - denied.tokensCharged),
  };
}

/** The outcome of a reserved call: the backend and model it used, and whether it failed (it stays charged). */
export async function recordCall(
  db: Db,
  usageId: string,
  call: { backend: AiBackend; model?: string | null; ok: boolean },
): Promise<void> {
  await db
    .update(aiUsage)
    .set({
      backend: call.backend,
      model: call.model ?? null,
      failedCalls: call.ok ? aiUsage.failedCalls : sql`${aiUsage.failedCalls} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(aiUsage.id, usageId));
}
