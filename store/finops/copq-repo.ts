import { and, count, eq, gte, inArray, ne, or, gt } from 'drizzle-orm';
import type { Db } from '../db';
import { copqConfig, copqEvents, dqAnomalies, dqEvents, dqxRunResults, jobs } from '../schema';

export type CopqEventRow = typeof copqEvents.$inferSelect;
export type NewCopqEvent = typeof copqEvents.$inferInsert;

/** dq_events types that are incidents (rule_logged only records, it does not stop anything). */
export const INCIDENT_TYPES = [
  'gate_failed',
  'rule_blocked',
  'rule_quarantined',
  'anomaly_critical',
  'scheduled_run_failed',
];

export type StoredFact =
  | { kind: 'failure'; id: string; table: string; at: Date; jobId: string | null; share: number }
  | { kind: 'freshness_breach'; id: string; table: string; at: Date }
  | { kind: 'incident'; id: string; table: string; at: Date };

/**
 * The data-quality facts since `since`: failed DQ runs (a run result with status other than completed or with
 * error rows; its job's ledger cost shared among the job's tables), failed jobs with no DQ run rows (table =
 * `<source catalog>.*`), freshness breaches (a freshness_hours anomaly not marked false positive) and incidents
 * (dq_events of the INCIDENT_TYPES).
 */
export async function readCopqFacts(db: Db, since: Date): Promise<StoredFact[]> {
  const [runs, failedJobs, breaches, incidents] = await Promise.all([
    db
      .select()
      .from(dqxRunResults)
      .where(
        and(
          gte(dqxRunResults.executedAt, since),
          or(ne(dqxRunResults.status, 'completed'), gt(dqxRunResults.errorRows, 0)),
        ),
      ),
    db
      .select()
      .from(jobs)
      .where(and(eq(jobs.status, 'failed'), gte(jobs.createdAt, since))),
    db
      .select()
      .from(dqAnomalies)
      .where(
        and(
          eq(dqAnomalies.metric, 'freshness_hours'),
          ne(dqAnomalies.status, 'false_positive'),
          gte(dqAnomalies.detectedAt, since),
        ),
      ),
    db
      .select()
      .from(dqEvents)
      .where(and(inArray(dqEvents.type, INCIDENT_TYPES), gte(dqEvents.createdAt, since))),
  ]);
  const jobIds = [...new Set(runs.map((r) => r.jobId))];
  const perJob = new Map<string, number>();
  if (jobIds.length) {
    const counts = await db
      .select({ jobId: dqxRunResults.jobId, n: count() })
      .from(dqxRunResults)
      .where(inArray(dqxRunResults.jobId, jobIds))
      .groupBy(dqxRunResults.jobId);
    for (const c of counts) perJob.set(c.jobId, Number(c.n));
  }
  const dqJobs = new Set(
    failedJobs.length
      ? (
          await db
            .selectDistinct({ jobId: dqxRunResults.jobId })
            .from(dqxRunResults)
            .where(
              inArray(
                dqxRunResults.jobId,
                failedJobs.map((j) => j.jobId),
              ),
            )
        ).map((r) => r.jobId)
      : [],
  );
  return [
    ...runs.map((r) => ({
      kind: 'failure' as const,
      id: `dq_run:${r.runId}`,
      table: r.tableFqn,
      at: r.executedAt,
      jobId: r.jobId,
      share: 1 / (perJob.get(r.jobId) ?? 1),
    })),
    ...failedJobs
      .filter((j) => !dqJobs.has(j.jobId))
      .map((j) => ({
        kind: 'failure' as const,
        id: `job:${j.jobId}`,
        table: `${j.sourceCatalog ?? j.jobType}.*`,
        at: j.createdAt,
        jobId: j.jobId,
        share: 1,
      })),
    ...breaches.map((a) => ({
      kind: 'freshness_breach' as const,
      id: `anomaly:${a.anomalyId}`,
      table: a.tableFqn,
      at: a.detectedAt,
    })),
    ...incidents.map((e) => ({
      kind: 'incident' as const,
      id: `dq_event:${e.id}`,
      table: e.tableFqn ?? '(no table)',
      at: e.createdAt,
    })),
  ];
}

/** Replaces the window's events (occurred since `since`) with `events`, in one transaction. */
export async function replaceCopqEvents(db: Db, since: Date, events: NewCopqEvent[]): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.delete(copqEvents).where(gte(copqEvents.occurredAt, since));
    for (let i = 0; i < events.length; i += 500)
      await tx
        .insert(copqEvents)
        .values(events.slice(i, i + 500))
        .onConflictDoNothing();
    return events.length;
  });
}

export async function listCopqEvents(db: Db, since: Date): Promise<CopqEventRow[]> {
  return db.select().from(copqEvents).where(gte(copqEvents.occurredAt, since));
}

export async function countCopqEvents(db: Db): Promise<number> {
  const [r] = await db.select({ n: count() }).from(copqEvents);
  return Number(r.n);
}

export async function readCopqConfig(db: Db): Promise<Record<string, number> | null> {
  const [row] = await db.select().from(copqConfig).where(eq(copqConfig.id, 'default'));
  return row?.params ?? null;
}

export async function writeCopqConfig(db: Db, params: Record<string, number>): Promise<void> {
  await db
    .insert(copqConfig)
    .values({ id: 'default', params })
    .onConflictDoUpdate({ target: copqConfig.id, set: { params, updatedAt: new Date() } });
}
