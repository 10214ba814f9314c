import { boolean, doublePrecision, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Cost recommendations, one row per finding id (= hash(type, subject)): a refresh upserts what the analysers
 * found, so however often it runs a finding is one row. The status moves open → applying → applied (or back to
 * open with the apply's error), open → dismissed | snoozed until `suppressed_until`, and open → resolved when a
 * refresh no longer finds it.
 */
export const finopsRecommendations = pgTable(
  'finops_recommendations',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    subject: text('subject').notNull(),
    title: text('title').notNull(),
    action: jsonb('action').$type<Record<string, unknown>>().notNull(),
    evidence: jsonb('evidence').$type<{ fact: string; value: unknown; source: string }[]>().notNull(),
    savingsUsdMonth: doublePrecision('savings_usd_month'),
    benefit: text('benefit').notNull(),
    confidence: text('confidence').notNull(),
    effort: text('effort').notNull(),
    /** open | applying | applied | dismissed | snoozed | resolved */
    status: text('status').notNull(),
    /** Whether the newest refresh found it. */
    found: boolean('found').notNull().default(true),
    suppressedUntil: tsz('suppressed_until'),
    firstSeenAt: tsz('first_seen_at').notNull(),
    lastSeenAt: tsz('last_seen_at').notNull(),
    suggestedBy: text('suggested_by'),
    suggestedAt: tsz('suggested_at'),
    applyJobId: text('apply_job_id'),
    appliedBy: text('applied_by'),
    appliedAt: tsz('applied_at'),
    applyResult: jsonb('apply_result').$type<Record<string, unknown>>(),
    error: text('error'),
    updatedAt: tsz('updated_at').notNull(),
  },
  (t) => [index('finops_recommendations_status_idx').on(t.status)],
);
