import { doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Custom frameworks loaded from YAML (built-in ones are read from config/compliance/*.yaml). */
export const complianceFrameworks = pgTable('compliance_frameworks', {
  frameworkId: text('framework_id').primaryKey(),
  name: text('name').notNull(),
  version: text('version').notNull(),
  /** The validated framework document. */
  document: jsonb('document').$type<Record<string, unknown>>().notNull(),
  loadedBy: text('loaded_by').notNull(),
  loadedAt: tsz('loaded_at').notNull().defaultNow(),
});

/** One row per assessment: the totals and score, kept for the trend. */
export const complianceAssessments = pgTable(
  'compliance_assessments',
  {
    assessmentId: uuid('assessment_id').primaryKey().defaultRandom(),
    frameworkId: text('framework_id').notNull(),
    frameworkName: text('framework_name').notNull(),
    frameworkVersion: text('framework_version').notNull(),
    totalControls: integer('total_controls').notNull(),
    metControls: integer('met_controls').notNull(),
    partialControls: integer('partial_controls').notNull(),
    gapControls: integer('gap_controls').notNull(),
    score: doublePrecision('score').notNull(),
    assessedBy: text('assessed_by').notNull(),
    assessedAt: tsz('assessed_at').notNull(),
  },
  (t) => [index('compliance_assessments_fw_idx').on(t.frameworkId, t.assessedAt)],
);

/** The evidence of one source of one control in one assessment, with the control's status then. */
export const complianceEvidence = pgTable(
  'compliance_evidence',
  {
    evidenceId: uuid('evidence_id').primaryKey().defaultRandom(),
    assessmentId: uuid('assessment_id')
      .notNull()
      .references(() => complianceAssessments.assessmentId, { onDelete: 'cascade' }),
    frameworkId: text('framework_id').notNull(),
    controlId: text('control_id').notNull(),
    controlName: text('control_name').notNull(),
    category: text('category').notNull(),
    /** The control's status in this assessment (met, partial, gap). */
    status: text('status').notNull(),
    evidenceType: text('evidence_type').notNull(),
    source: jsonb('source').$type<Record<string, unknown>>().notNull(),
    evidenceCount: integer('evidence_count').notNull(),
    freshCount: integer('fresh_count').notNull(),
    newestAt: tsz('newest_at'),
    freshnessDays: integer('freshness_days').notNull(),
    /** fresh, stale or none */
    state: text('state').notNull(),
    summary: text('summary').notNull(),
    /** Order of the control in its framework and of the source in its control. */
    position: integer('position').notNull(),
    collectedAt: tsz('collected_at').notNull(),
  },
  (t) => [index('compliance_evidence_assessment_idx').on(t.assessmentId)],
);
