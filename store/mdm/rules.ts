import { randomBytes } from 'node:crypto';
import { and, asc, eq, ne, or, isNull, sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { Db } from '../db';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A source record as a rule names it. */
export interface RuleRecordRef {
  system: string;
  record_id: string;
}

/** One member of a pair or group rule: a golden record (its records when the rule was made) or one record. */
export interface RuleMember {
  entity_id: string | null;
  records: RuleRecordRef[];
}

/**
 * Negative-match rules: records that must never share a golden record. `pair` and `group` keep the records of
 * different members apart; `pattern` keeps apart any two records for which `predicate` (over `a.<attr>` and
 * `b.<attr>`) holds. `blocked_attempts` adds, per match run, the merges the rule prevented (`last_run_id` makes
 * the count once per run).
 */
export const mdmNegativeMatchRules = pgTable(
  'mdm_negative_match_rules',
  {
    id: text('id').primaryKey(),
    entityType: text('entity_type').notNull(),
    type: text('type').notNull(),
    members: jsonb('members').$type<RuleMember[]>().notNull(),
    predicate: text('predicate'),
    reason: text('reason').notNull(),
    status: text('status').notNull().default('active'),
    createdBy: text('created_by').notNull(),
    blockedAttempts: integer('blocked_attempts').notNull().default(0),
    lastRunId: text('last_run_id'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    updatedAt: tsz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('mdm_negative_match_rules_entity_idx').on(t.entityType, t.status)],
);

export type NegativeMatchRuleRow = typeof mdmNegativeMatchRules.$inferSelect;
export type NewNegativeMatchRule = Omit<
  typeof mdmNegativeMatchRules.$inferInsert,
  'id' | 'blockedAttempts' | 'lastRunId' | 'createdAt' | 'updatedAt'
>;

export const newRuleId = () => `NMR-${randomBytes(8).toString('hex')}`;

export async function createNegativeMatchRule(db: Db, rule: NewNegativeMatchRule): Promise<NegativeMatchRuleRow> {
  const [row] = await db
    .insert(mdmNegativeMatchRules)
    .values({ ...rule, id: newRuleId() })
    .returning();
  return row;
}

export async function getNegativeMatchRule(db: Db, id: string): Promise<NegativeMatchRuleRow | undefined> {
  const [row] = await db.select().from(mdmNegativeMatchRules).where(eq(mdmNegativeMatchRules.id, id));
  return row;
}

export async function listNegativeMatchRules(
  db: Db,
  filter: { entityType?: string; status?: string } = {},
): Promise<NegativeMatchRuleRow[]> {
  const where = [
    filter.entityType ? eq(mdmNegativeMatchRules.entityType, filter.entityType) : undefined,
    filter.status ? eq(mdmNegativeMatchRules.status, filter.status) : undefined,
  ].filter((w) => w !== undefined);
  return db
    .select()
    .from(mdmNegativeMatchRules)
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(mdmNegativeMatchRules.createdAt), asc(mdmNegativeMatchRules.id));
}

/** The active rules a match run of `entityType` applies. */
export const activeNegativeMatchRules = (db: Db, entityType: string) =>
  listNegativeMatchRules(db, { entityType, status: 'active' });

export async function setNegativeMatchRuleStatus(
  db: Db,
  id: string,
  status: 'active' | 'inactive',
): Promise<NegativeMatchRuleRow | undefined> {
  const [row] = await db
    .update(mdmNegativeMatchRules)
    .set({ status, updatedAt: new Date() })
    .where(eq(mdmNegativeMatchRules.id, id))
    .returning();
  return row;
}

export async function deleteNegativeMatchRule(db: Db, id: string): Promise<boolean> {
  const gone = await db.delete(mdmNegativeMatchRules).where(eq(mdmNegativeMatchRules.id, id)).returning();
  return gone.length > 0;
}

/** Adds a run's prevented merges to each rule, once per run (a retried activity adds nothing twice). */
export async function addBlockedAttempts(db: Db, runId: string, counts: Record<string, number>): Promise<void> {
  for (const [id, n] of Object.entries(counts)) {
    if (n <= 0) continue;
    await db
      .update(mdmNegativeMatchRules)
      .set({ blockedAttempts: sql`${mdmNegativeMatchRules.blockedAttempts} + ${n}`, lastRunId: runId })
      .where(
        and(
          eq(mdmNegativeMatchRules.id, id),
          or(isNull(mdmNegativeMatchRules.lastRunId), ne(mdmNegativeMatchRules.lastRunId, runId)),
        ),
      );
  }
}
