import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One model per entity type: its attributes, comparisons, rules and survivorship (the validated JSON). */
export const mdmModels = pgTable('mdm_models', {
  entityType: text('entity_type').primaryKey(),
  definition: jsonb('definition').$type<Record<string, unknown>>().notNull(),
  createdAt: tsz('created_at').notNull().defaultNow(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});

/** A source system of an entity type: its table, key column, attribute → column map and trust. */
export const mdmSources = pgTable(
  'mdm_sources',
  {
    system: text('system').primaryKey(),
    entityType: text('entity_type').notNull(),
    tableFqn: text('table_fqn').notNull(),
    keyColumn: text('key_column').notNull(),
    columns: jsonb('columns').$type<Record<string, string>>().notNull(),
    trust: integer('trust').notNull(),
    updatedAtColumn: text('updated_at_column'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    updatedAt: tsz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('mdm_sources_entity_type_idx').on(t.entityType)],
);

/** The MDM audit trail: who changed which model, source, rule or record, and how. */
export const mdmAudit = pgTable(
  'mdm_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: tsz('at').notNull().defaultNow(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [index('mdm_audit_object_idx').on(t.objectType, t.objectId)],
);
