import { and, asc, desc, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '../db';
import { complianceAssessments, complianceEvidence, complianceFrameworks } from './tables';

export type AssessmentRow = typeof complianceAssessments.$inferSelect;
export type EvidenceRow = typeof complianceEvidence.$inferSelect;
export type NewAssessmentRow = typeof complianceAssessments.$inferInsert;
export type NewEvidenceRow = Omit<typeof complianceEvidence.$inferInsert, 'assessmentId'>;
export type CustomFrameworkRow = typeof complianceFrameworks.$inferSelect;

export function listCustomFrameworks(db: Db): Promise<CustomFrameworkRow[]> {
  return db.select().from(complianceFrameworks).orderBy(asc(complianceFrameworks.frameworkId));
}

/** Inserts a custom framework, or replaces it when `replace`; false when it exists and may not be replaced. */
export async function saveCustomFramework(
  db: Db,
  row: typeof complianceFrameworks.$inferInsert,
  replace: boolean,
): Promise<boolean> {
  const insert = db.insert(complianceFrameworks).values(row);
  const done = replace
    ? await insert
        .onConflictDoUpdate({
          target: complianceFrameworks.frameworkId,
          set: {
            name: row.name,
            version: row.version,
            document: row.document,
            loadedBy: row.loadedBy,
            loadedAt: new Date(),
          },
        })
        .returning()
    : await insert.onConflictDoNothing().returning();
  return done.length > 0;
}

/** Stores an assessment and its evidence in one transaction. */
export function saveAssessment(db: Db, a: NewAssessmentRow, evidence: NewEvidenceRow[]): Promise<AssessmentRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(complianceAssessments).values(a).returning();
    if (evidence.length)
      await tx.insert(complianceEvidence).values(evidence.map((e) => ({ ...e, assessmentId: row.assessmentId })));
    return row;
  });
}

/** The newest assessment of a framework, optionally at or before `until` and at or after `since`. */
export async function latestAssessment(
  db: Db,
  frameworkId: string,
  range: { since?: Date; until?: Date } = {},
): Promise<AssessmentRow | null> {
  const where = [eq(complianceAssessments.frameworkId, frameworkId)];
  if (range.since) where.push(gte(complianceAssessments.assessedAt, range.since));
  if (range.until) where.push(lte(complianceAssessments.assessedAt, range.until));
  const [row] = await db
    .select()
    .from(complianceAssessments)
    .where(and(...where))
    .orderBy(desc(complianceAssessments.assessedAt))
    .limit(1);
  return row ?? null;
}

export function evidenceOf(db: Db, assessmentId: string): Promise<EvidenceRow[]> {
  return db
    .select()
    .from(complianceEvidence)
    .where(eq(complianceEvidence.assessmentId, assessmentId))
    .orderBy(asc(complianceEvidence.position));
}

/** Scores oldest first (at most `limit`, the newest ones), optionally within a period. */
export async function trendOf(
  db: Db,
  frameworkId: string,
  range: { since?: Date; until?: Date; limit?: number } = {},
): Promise<AssessmentRow[]> {
  const where = [eq(complianceAssessments.frameworkId, frameworkId)];
  if (range.since) where.push(gte(complianceAssessments.assessedAt, range.since));
  if (range.until) where.push(lte(complianceAssessments.assessedAt, range.until));
  const rows = await db
    .select()
    .from(complianceAssessments)
    .where(and(...where))
    .orderBy(desc(complianceAssessments.assessedAt))
    .limit(range.limit ?? 100);
  return rows.reverse();
}
