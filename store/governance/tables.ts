import { bigserial, boolean, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Access policies (`/api/rbac/policies`): one row per rule, evaluated deny-first in `position` order. */
export const accessPolicies = pgTable('access_policies', {
  name: text('name').primaryKey(),
  position: bigserial('position', { mode: 'number' }).notNull(),
  principals: jsonb('principals').$type<string[]>().notNull(),
  allowedSources: jsonb('allowed_sources').$type<string[]>().notNull(),
  allowedDestinations: jsonb('allowed_destinations').$type<string[]>().notNull(),
  allowedSchemas: jsonb('allowed_schemas').$type<string[]>().notNull(),
  allowedOperations: jsonb('allowed_operations').$type<string[]>().notNull(),
  deny: boolean('deny').notNull().default(false),
  description: text('description'),
  createdBy: text('created_by').notNull(),
  createdAt: tsz('created_at').notNull().defaultNow(),
});

/** Plugin switches (`/api/plugins`): a row once a plugin was toggled; absent = its built-in default. */
export const pluginStates = pgTable('plugin_states', {
  name: text('name').primaryKey(),
  enabled: boolean('enabled').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});
