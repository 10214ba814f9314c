import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { cloneJobTables, cloneTableState } from '../clone/tables';
import { jobs } from '../jobs/tables';

/** The recorded clones into or out of `catalog`: the last clone of each destination table. */
export async function cloneEdges(db: Db, catalog: string) {
  const c = catalog.toLowerCase();
  return db
    .select()
    .from(cloneTableState)
    .where(or(sql`lower(${cloneTableState.sourceCatalog}) = ${c}`, sql`lower(${cloneTableState.destCatalog}) = ${c}`))
    .limit(10_000);
}

export interface JobRef {
  job_id: string;
  job_type: string;
  status: string;
  created_at: string;
}

const view = (j: typeof jobs.$inferSelect): JobRef => ({
  job_id: j.jobId,
  job_type: j.jobType,
  status: j.status,
  created_at: j.createdAt.toISOString(),
});

/** Jobs that read or wrote `catalog` (and, when given, the table of `schema`), newest first, at most 50. */
export async function referencingJobs(db: Db, catalog: string, schema?: string, table?: string): Promise<JobRef[]> {
  const onCatalog = or(eq(jobs.sourceCatalog, catalog), eq(jobs.destinationCatalog, catalog));
  if (schema === undefined) {
    return (await db.select().from(jobs).where(onCatalog).orderBy(desc(jobs.createdAt)).limit(50)).map(view);
  }
  const touched = db
    .selectDistinct({ jobId: cloneJobTables.jobId })
    .from(cloneJobTables)
    .where(
      and(eq(cloneJobTables.schemaName, schema), table === undefined ? undefined : eq(cloneJobTables.tableName, table)),
    );
  return (
    await db
      .select()
      .from(jobs)
      .where(and(onCatalog, inArray(jobs.jobId, touched)))
      .orderBy(desc(jobs.createdAt))
      .limit(50)
  ).map(view);
}
