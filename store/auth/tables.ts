import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Signed-in sessions (express-session's store). The row is keyed by the SHA-256 of the session id (the cookie's
 * value never reaches the store) and holds only an AES-256-GCM envelope of the session (credentials included).
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    sidHash: text('sid_hash').primaryKey(),
    envelope: jsonb('envelope').$type<Record<string, string>>().notNull(),
    /** Idle expiry: pushed forward on every use. */
    expiresAt: tsz('expires_at').notNull(),
    /** Absolute expiry: set at sign-in, never moved. */
    absoluteExpiresAt: tsz('absolute_expires_at').notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
    updatedAt: tsz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('auth_sessions_expires_idx').on(t.expiresAt)],
);
