import { boolean, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Saved target connections for cross-workspace clones. `credentials` holds the secret material and is
 * never returned by the API in clear (repositories expose a redacted view).
 */
export const targets = pgTable('targets', {
  name: text('name').primaryKey(),
  host: text('host').notNull(),
  authMethod: text('auth_method').notNull(),
  credentials: jsonb('credentials').$type<Record<string, string>>().notNull(),
  warehouseId: text('warehouse_id').notNull(),
  syncMode: text('sync_mode').notNull().default('snapshot_once'),
  autoHandleMasks: boolean('auto_handle_masks').notNull().default(false),
  keepShare: boolean('keep_share').notNull().default(false),
  extra: jsonb('extra').$type<Record<string, unknown>>(),
  createdAt: tsz('created_at').notNull().defaultNow(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});
