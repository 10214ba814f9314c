import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Completions, failures and warnings shown by GET /api/notifications. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    message: text('message').notNull(),
    status: text('status'),
    jobId: text('job_id'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    readAt: tsz('read_at'),
  },
  (t) => [index('notifications_created_at_idx').on(t.createdAt)],
);
