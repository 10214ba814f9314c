import { asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { audit } from '../schema';

export type AuditRow = typeof audit.$inferSelect;
export type NewAudit = typeof audit.$inferInsert;

export async function recordAudit(db: Db, entry: NewAudit): Promise<AuditRow> {
  const [row] = await db.insert(audit).values(entry).returning();
  return row;
}

/** A job's audit trail in the order it happened. */
export async function auditForJob(db: Db, jobId: string): Promise<AuditRow[]> {
  return db.select().from(audit).where(eq(audit.jobId, jobId)).orderBy(asc(audit.createdAt), asc(audit.id));
}

/** Newest first. */
export async function recentAudit(db: Db, limit = 100, offset = 0): Promise<AuditRow[]> {
  return db.select().from(audit).orderBy(desc(audit.createdAt)).limit(limit).offset(offset);
}
