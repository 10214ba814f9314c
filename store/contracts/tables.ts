import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * ODCS data contracts by name (`orders`; a document's id is `orders@1.0`). `status` is `draft` while an
 * unpublished draft exists, `active` once a version is published and no draft is open, `archived` after a delete
 * of a contract attached nowhere. The open draft's document lives here; published versions never change.
 */
export const contracts = pgTable('contracts', {
  name: text('name').primaryKey(),
  status: text('status').notNull(),
  /** The open draft (its id is `name@<next version>`), or null. */
  draft: jsonb('draft').$type<Record<string, unknown>>(),
  /** Newest published version (`1.1`), or null. */
  latestVersion: text('latest_version'),
  createdBy: text('created_by').notNull(),
  createdAt: tsz('created_at').notNull().defaultNow(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});

/** Published, immutable versions: written once by publish, never updated. */
export const contractVersions = pgTable(
  'contract_versions',
  {
    name: text('name').notNull(),
    version: text('version').notNull(),
    document: jsonb('document').$type<Record<string, unknown>>().notNull(),
    publishedBy: text('published_by').notNull(),
    publishedAt: tsz('published_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.name, t.version] })],
);

/** Tables a contract is attached to (validated at clone time and on its schedule). */
export const contractAttachments = pgTable(
  'contract_attachments',
  {
    name: text('name').notNull(),
    tableFqn: text('table_fqn').notNull(),
    attachedBy: text('attached_by').notNull(),
    attachedAt: tsz('attached_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.name, t.tableFqn] }), index('contract_attachments_table_idx').on(t.tableFqn)],
);

/**
 * Every validation of a contract version against a table: `status` passed | failed (drift or a violation);
 * `trigger` api | schedule | clone; `sections` the per-section result. Compliance evidence reads this table.
 */
export const contractValidations = pgTable(
  'contract_validations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The document id, `orders@1.0`. */
    contractId: text('contract_id').notNull(),
    name: text('name').notNull(),
    version: text('version').notNull(),
    tableFqn: text('table_fqn').notNull(),
    status: text('status').notNull(),
    severity: text('severity').notNull(),
    trigger: text('trigger').notNull(),
    jobId: text('job_id'),
    violationCount: integer('violation_count').notNull(),
    sections: jsonb('sections').$type<Record<string, unknown>>().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('contract_validations_contract_idx').on(t.name, t.createdAt),
    index('contract_validations_job_idx').on(t.jobId),
  ],
);
