import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * One row per AI-using request or job: its token budget and what it spent. `tokens_charged` grows by a call's full
 * max_tokens when the call is reserved (before it is made), so failed and retried calls are charged too and the
 * budget is never overshot, even by activities of one job running at the same time.
 */
export const aiUsage = pgTable(
  'ai_usage',
  {
    id: text('id').primaryKey(),
    /** What spent it: an API route (`POST /api/ai/summarize`) or a job type. */
    route: text('route').notNull(),
    jobId: text('job_id'),
    /** template | serving_endpoint | external: the backend the last call used (template when none was made). */
    backend: text('backend').notNull().default('template'),
    model: text('model'),
    budget: integer('budget').notNull(),
    /** Model calls reserved (each one charged its max_tokens, whatever its outcome). */
    calls: integer('calls').notNull().default(0),
    failedCalls: integer('failed_calls').notNull().default(0),
    /** Calls not made because the budget was too small (the template answered). */
    budgetDenials: integer('budget_denials').notNull().default(0),
    tokensCharged: integer('tokens_charged').notNull().default(0),
    createdAt: tsz('created_at').notNull().defaultNow(),
    updatedAt: tsz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('ai_usage_job_id_idx').on(t.jobId)],
);
