import { doublePrecision, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A scope narrows the cost a budget counts: one warehouse and/or one job type. */
export interface BudgetScope {
  warehouse_id?: string;
  job_type?: string;
}

/** Monthly cost budgets, kept in the store so every client and the hourly evaluation see the same ones. */
export const finopsBudgets = pgTable('finops_budgets', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  period: text('period').notNull().default('monthly'),
  /** total | platform | compute | storage */
  category: text('category').notNull(),
  amountUsd: doublePrecision('amount_usd').notNull(),
  alertThresholdPct: doublePrecision('alert_threshold_pct').notNull().default(80),
  scope: jsonb('scope').$type<BudgetScope>(),
  webhookUrl: text('webhook_url'),
  createdAt: tsz('created_at').notNull().defaultNow(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});

/**
 * One row per budget, period (`2026-11`) and level (`threshold` | `exceeded`): inserted in the same transaction
 * as its notification, so however often evaluation runs a level alerts once. The webhook columns track its POST.
 */
export const finopsBudgetAlerts = pgTable(
  'finops_budget_alerts',
  {
    budgetId: uuid('budget_id')
      .notNull()
      .references(() => finopsBudgets.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    level: text('level').notNull(),
    utilizationPct: doublePrecision('utilization_pct').notNull(),
    actualUsd: doublePrecision('actual_usd').notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
    webhookAttempts: integer('webhook_attempts').notNull().default(0),
    webhookClaimedAt: tsz('webhook_claimed_at'),
    webhookDeliveredAt: tsz('webhook_delivered_at'),
    webhookError: text('webhook_error'),
  },
  (t) => [primaryKey({ columns: [t.budgetId, t.period, t.level] })],
);
