import { bigserial, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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

/** Business glossary terms; status draft → approved → deprecated (approve and deprecate are steward actions). */
export const glossaryTerms = pgTable('glossary_terms', {
  termId: text('term_id').primaryKey(),
  name: text('name').notNull(),
  abbreviation: text('abbreviation'),
  definition: text('definition').notNull(),
  domain: text('domain').notNull().default('General'),
  owner: text('owner'),
  tags: jsonb('tags').$type<string[]>().notNull(),
  status: text('status').notNull().default('draft'),
  createdBy: text('created_by').notNull(),
  createdAt: tsz('created_at').notNull().defaultNow(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});

/** Columns a glossary term describes (`catalog.schema.table.column`), each once per term. */
export const glossaryLinks = pgTable(
  'glossary_links',
  {
    termId: text('term_id').notNull(),
    columnFqn: text('column_fqn').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('glossary_links_term_column_idx').on(t.termId, t.columnFqn)],
);

/** Every change to a governance object (glossary terms): who, when, what. */
export const governanceChanges = pgTable(
  'governance_changes',
  {
    changeId: bigserial('change_id', { mode: 'number' }).primaryKey(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    changeType: text('change_type').notNull(),
    changedBy: text('changed_by').notNull(),
    changedAt: tsz('changed_at').notNull().defaultNow(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index('governance_changes_entity_idx').on(t.entityType, t.entityId)],
);
