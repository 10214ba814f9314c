import { doublePrecision, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Cost of poor data quality: one row per (table, type, fact) — type rerun | sla | triage | downstream, fact the
 * id of the recorded fact it prices. A compute replaces its window's rows in one transaction.
 */
export const copqEvents = pgTable(
  'copq_events',
  {
    tableFqn: text('table_fqn').notNull(),
    type: text('type').notNull(),
    fact: text('fact').notNull(),
    /** ISO week of the fact, `2026-W47`. */
    week: text('week').notNull(),
    occurredAt: tsz('occurred_at').notNull(),
    costUsd: doublePrecision('cost_usd').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
    computedAt: tsz('computed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tableFqn, t.type, t.fact] }), index('copq_events_time_idx').on(t.occurredAt)],
);

/** The COPQ parameters a compute uses when its request leaves them out (one row, id `default`). */
export const copqConfig = pgTable('copq_config', {
  id: text('id').primaryKey(),
  params: jsonb('params').$type<Record<string, number>>().notNull(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});
