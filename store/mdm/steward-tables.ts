import {
  bigserial,
  boolean,
  date,
  index,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A source record as cases, decisions and overrides name it. */
export interface RecordRef {
  system: string;
  record_id: string;
}

/** One attribute of a case's pair: both values and the weight (log2 Bayes factor) the comparison gave. */
export interface CaseAttribute {
  attribute: string;
  values: (string | null)[];
  weight: number | null;
  level?: string | null;
}

/**
 * Stewardship cases. `case_key` is `<type>|<sorted system:record_id list>`: opening the same case twice is a no-op
 * (whatever its status), so re-runs never duplicate or reopen a case.
 */
export const mdmCases = pgTable(
  'mdm_cases',
  {
    id: text('id').primaryKey(),
    caseKey: text('case_key').notNull(),
    entityType: text('entity_type').notNull(),
    type: text('type').notNull(),
    status: text('status').notNull().default('open'),
    records: jsonb('records').$type<RecordRef[]>().notNull(),
    entityIds: jsonb('entity_ids').$type<string[]>().notNull(),
    score: real('score'),
    attributes: jsonb('attributes').$type<CaseAttribute[]>().notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
    runId: text('run_id'),
    assignedTo: text('assigned_to'),
    openedAt: tsz('opened_at').notNull().defaultNow(),
    dueAt: tsz('due_at').notNull(),
    resolvedAt: tsz('resolved_at'),
    resolvedBy: text('resolved_by'),
    resolution: jsonb('resolution').$type<Record<string, unknown>>(),
    overdueNotifiedAt: tsz('overdue_notified_at'),
  },
  (t) => [
    uniqueIndex('mdm_cases_case_key_idx').on(t.caseKey),
    index('mdm_cases_status_idx').on(t.status, t.entityType),
  ],
);

/**
 * Steward decisions the matcher honours on every later run: `must_link` (approved) and `cannot_link` (rejected)
 * between two source records (`a` < `b` as `system:record_id`).
 */
export const mdmLinkDecisions = pgTable(
  'mdm_link_decisions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    entityType: text('entity_type').notNull(),
    kind: text('kind').notNull(),
    aSystem: text('a_system').notNull(),
    aRecordId: text('a_record_id').notNull(),
    bSystem: text('b_system').notNull(),
    bRecordId: text('b_record_id').notNull(),
    caseId: text('case_id'),
    createdBy: text('created_by').notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mdm_link_decisions_pair_idx').on(t.entityType, t.aSystem, t.aRecordId, t.bSystem, t.bRecordId)],
);

/** Steward overrides of a golden record's attribute; survivorship applies them on every later run. */
export const mdmOverrides = pgTable(
  'mdm_overrides',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    entityType: text('entity_type').notNull(),
    target: text('target').notNull(),
    entityId: text('entity_id'),
    records: jsonb('records').$type<RecordRef[]>().notNull(),
    attribute: text('attribute').notNull(),
    value: jsonb('value').$type<unknown>(),
    caseId: text('case_id'),
    createdBy: text('created_by').notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mdm_overrides_target_idx').on(t.entityType, t.target, t.attribute)],
);

/** Reference data domains (`builtin` ones are loaded from ISO 3166-1 / ISO 4217 packages). */
export const mdmRefDomains = pgTable('mdm_ref_domains', {
  name: text('name').primaryKey(),
  description: text('description'),
  builtin: boolean('builtin').notNull().default(false),
  createdAt: tsz('created_at').notNull().defaultNow(),
});

/** The codes of a domain; `aliases` as given, their normalised forms in mdm_ref_aliases. */
export const mdmRefCodes = pgTable(
  'mdm_ref_codes',
  {
    domain: text('domain').notNull(),
    code: text('code').notNull(),
    description: text('description'),
    aliases: jsonb('aliases').$type<string[]>().notNull(),
    parent: text('parent'),
    validFrom: date('valid_from', { mode: 'string' }),
    validTo: date('valid_to', { mode: 'string' }),
    updatedAt: tsz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.domain, t.code] })],
);

/** Normalised alias → code (the code itself included): one code per alias in a domain. */
export const mdmRefAliases = pgTable(
  'mdm_ref_aliases',
  {
    domain: text('domain').notNull(),
    alias: text('alias').notNull(),
    code: text('code').notNull(),
  },
  (t) => [primaryKey({ columns: [t.domain, t.alias] }), index('mdm_ref_aliases_code_idx').on(t.domain, t.code)],
);

/** Custom reports posted through the API (the built-ins and config/mdm/reports/*.yaml are not stored). */
export const mdmReports = pgTable('mdm_reports', {
  name: text('name').primaryKey(),
  definition: jsonb('definition').$type<Record<string, unknown>>().notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: tsz('created_at').notNull().defaultNow(),
});
