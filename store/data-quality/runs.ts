import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { dqxFailureSamples, dqxRunResults, dqxSegmentResults } from '../schema';

export type DqRunRow = typeof dqxRunResults.$inferSelect;
export type NewDqRunRow = typeof dqxRunResults.$inferInsert;
export type DqSampleRow = typeof dqxFailureSamples.$inferSelect;
export type NewDqSample = Omit<typeof dqxFailureSamples.$inferInsert, 'runId' | 'tableFqn'>;
export type DqSegmentRow = typeof dqxSegmentResults.$inferSelect;
export type NewDqSegment = Omit<typeof dqxSegmentResults.$inferInsert, 'runId' | 'tableFqn'>;

/** The most failure samples one run keeps. */
export const MAX_FAILURE_SAMPLES = 10;

/**
 * Records a table's run result and its failure samples (at most 10) in one transaction. Keyed on the run id:
 * a retried activity replaces what an earlier attempt wrote instead of adding to it.
 */
export async function saveRunResult(db: Db, run: NewDqRunRow, samples: NewDqSample[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(dqxFailureSamples).where(eq(dqxFailureSamples.runId, run.runId));
    await tx
      .insert(dqxRunResults)
      .values(run)
      .onConflictDoUpdate({ target: dqxRunResults.runId, set: { ...run } });
    const kept = samples.slice(0, MAX_FAILURE_SAMPLES);
    if (kept.length)
      await tx
        .insert(dqxFailureSamples)
        .values(kept.map((s, i) => ({ ...s, sampleIndex: i, runId: run.runId, tableFqn: run.tableFqn })));
  });
}

export async function getRun(db: Db, runId: string): Promise<DqRunRow | undefined> {
  const [row] = await db.select().from(dqxRunResults).where(eq(dqxRunResults.runId, runId));
  return row;
}

/** The per-table results of one dq job, in table order. */
export async function runsOfJob(db: Db, jobId: string): Promise<DqRunRow[]> {
  return db.select().from(dqxRunResults).where(eq(dqxRunResults.jobId, jobId)).orderBy(asc(dqxRunResults.runId));
}

/** Run results, newest first, optionally of one table. */
export async function listRuns(
  db: Db,
  opts: { tableFqn?: string; limit?: number; offset?: number } = {},
): Promise<DqRunRow[]> {
  return db
    .select()
    .from(dqxRunResults)
    .where(opts.tableFqn ? eq(dqxRunResults.tableFqn, opts.tableFqn) : undefined)
    .orderBy(desc(dqxRunResults.executedAt), desc(dqxRunResults.runId))
    .limit(opts.limit ?? 50)
    .offset(opts.offset ?? 0);
}

/** The latest completed run of every table (the dashboard's rows), worst pass rate first. */
export async function latestRunPerTable(db: Db): Promise<DqRunRow[]> {
  const latest = db
    .selectDistinctOn([dqxRunResults.tableFqn], { runId: dqxRunResults.runId })
    .from(dqxRunResults)
    .where(eq(dqxRunResults.status, 'completed'))
    .orderBy(dqxRunResults.tableFqn, desc(dqxRunResults.executedAt), desc(dqxRunResults.runId));
  return db
    .select()
    .from(dqxRunResults)
    .where(inArray(dqxRunResults.runId, latest))
    .orderBy(asc(dqxRunResults.passRate), asc(dqxRunResults.tableFqn));
}

/** Failure samples of a run, or of a table's runs (newest first), in sample order. */
export async function failureSamples(
  db: Db,
  opts: { runId?: string; tableFqn?: string; limit?: number },
): Promise<DqSampleRow[]> {
  const where: SQL[] = [];
  if (opts.runId) where.push(eq(dqxFailureSamples.runId, opts.runId));
  if (opts.tableFqn) where.push(eq(dqxFailureSamples.tableFqn, opts.tableFqn));
  return db
    .select()
    .from(dqxFailureSamples)
    .where(and(...where))
    .orderBy(desc(dqxFailureSamples.sampledAt), desc(dqxFailureSamples.runId), asc(dqxFailureSamples.sampleIndex))
    .limit(opts.limit ?? 50);
}

/** Records a segmented run's rows (replacing an earlier attempt's). */
export async function saveSegments(db: Db, runId: string, tableFqn: string, rows: NewDqSegment[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(dqxSegmentResults).where(eq(dqxSegmentResults.runId, runId));
    if (rows.length) await tx.insert(dqxSegmentResults).values(rows.map((r) => ({ ...r, runId, tableFqn })));
  });
}

/** Segment rows of a run, or of a table's segmented runs, newest first and worst pass rate first. */
export async function segmentResults(
  db: Db,
  opts: { runId?: string; tableFqn?: string; limit?: number },
): Promise<DqSegmentRow[]> {
  const where: SQL[] = [];
  if (opts.runId) where.push(eq(dqxSegmentResults.runId, opts.runId));
  if (opts.tableFqn) where.push(eq(dqxSegmentResults.tableFqn, opts.tableFqn));
  return db
    .select()
    .from(dqxSegmentResults)
    .where(and(...where))
    .orderBy(desc(dqxSegmentResults.executedAt), asc(dqxSegmentResults.passRate), asc(dqxSegmentResults.id))
    .limit(opts.limit ?? 200);
}
