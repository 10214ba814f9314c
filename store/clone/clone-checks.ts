import { and, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { cloneChecks } from '../schema';
import { cloneJobTables } from './tables';

export type CloneCheckKind = 'validation' | 'dq';

/** Upsert: a re-run check (retried activity) replaces its earlier result. */
export async function putCloneCheck(
  db: Db,
  c: {
    jobId: string;
    target: string;
    kind: CloneCheckKind;
    schemaName: string;
    tableName: string;
    passed: boolean;
    details: Record<string, unknown>;
  },
): Promise<void> {
  await db
    .insert(cloneChecks)
    .values(c)
    .onConflictDoUpdate({
      target: [cloneChecks.jobId, cloneChecks.target, cloneChecks.kind, cloneChecks.schemaName, cloneChecks.tableName],
      set: { passed: c.passed, details: c.details, checkedAt: new Date() },
    });
}

export async function cloneChecksFor(db: Db, jobId: string, target: string, kind: CloneCheckKind) {
  return db
    .select()
    .from(cloneChecks)
    .where(and(eq(cloneChecks.jobId, jobId), eq(cloneChecks.target, target), eq(cloneChecks.kind, kind)));
}

/** Tables a job cloned into one target (optionally one schema), from the clone engine's per-table records. */
export async function clonedTables(db: Db, jobId: string, target: string, schema?: string) {
  const rows = await db
    .select({
      schemaName: cloneJobTables.schemaName,
      tableName: cloneJobTables.tableName,
      sourceVersion: cloneJobTables.sourceVersion,
    })
    .from(cloneJobTables)
    .where(
      and(
        eq(cloneJobTables.jobId, jobId),
        eq(cloneJobTables.target, target),
        eq(cloneJobTables.status, 'cloned'),
        schema ? eq(cloneJobTables.schemaName, schema) : undefined,
      ),
    );
  return rows.sort((a, b) => `${a.schemaName}.${a.tableName}`.localeCompare(`${b.schemaName}.${b.tableName}`));
}
