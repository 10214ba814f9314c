import { and, asc, desc, eq, gte, inArray, like, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { addNotification } from '../notifications/repo';
import {
  dqAnomalies,
  dqCheckSchedules,
  dqEvents,
  dqExpectationSuites,
  dqMetricObservations,
  dqxInlineRules,
} from '../schema';

export type DqAnomalyRow = typeof dqAnomalies.$inferSelect;
export type DqInlineRuleRow = typeof dqxInlineRules.$inferSelect;
export type DqSuiteRow = typeof dqExpectationSuites.$inferSelect;
export type DqScheduleRow = typeof dqCheckSchedules.$inferSelect;
export type DqEventRow = typeof dqEvents.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

// ---- metric observations and anomalies ----

export interface MetricKey {
  tableFqn: string;
  columnName: string;
  metric: string;
}

/** Baseline of a metric: in-baseline values measured since `since` (before `before`), and false-positive values. */
export async function metricBaseline(
  db: Db,
  key: MetricKey,
  since: Date,
): Promise<{ values: number[]; falsePositives: number[] }> {
  const rows = await db
    .select({
      value: dqMetricObservations.value,
      inBaseline: dqMetricObservations.inBaseline,
      fp: dqMetricObservations.falsePositive,
    })
    .from(dqMetricObservations)
    .where(
      and(
        eq(dqMetricObservations.tableFqn, key.tableFqn),
        eq(dqMetricObservations.columnName, key.columnName),
        eq(dqMetricObservations.metric, key.metric),
        gte(dqMetricObservations.measuredAt, since),
      ),
    );
  return {
    values: rows.filter((r) => r.inBaseline).map((r) => r.value),
    falsePositives: rows.filter((r) => r.fp).map((r) => r.value),
  };
}

/** Records one observation (out of the baseline when it is anomalous) and its anomaly, if any, in one transaction. */
export async function recordObservation(
  db: Db,
  obs: MetricKey & { value: number; runId: string | null; measuredAt: Date },
  anomaly: Omit<typeof dqAnomalies.$inferInsert, 'observationId' | 'tableFqn' | 'columnName' | 'metric'> | null,
): Promise<DqAnomalyRow | null> {
  return db.transaction(async (tx) => {
    const [o] = await tx
      .insert(dqMetricObservations)
      .values({ ...obs, inBaseline: anomaly === null })
      .returning({ id: dqMetricObservations.id });
    if (!anomaly) return null;
    const [a] = await tx
      .insert(dqAnomalies)
      .values({
        ...anomaly,
        observationId: o.id,
        tableFqn: obs.tableFqn,
        columnName: obs.columnName,
        metric: obs.metric,
      })
      .returning();
    return a;
  });
}

export async function listAnomalies(
  db: Db,
  q: { status?: string; severity?: string; tableFqn?: string; since?: Date; limit?: number; offset?: number },
): Promise<DqAnomalyRow[]> {
  const where: SQL[] = [];
  if (q.status) where.push(eq(dqAnomalies.status, q.status));
  if (q.severity) where.push(eq(dqAnomalies.severity, q.severity));
  if (q.tableFqn) where.push(eq(dqAnomalies.tableFqn, q.tableFqn));
  if (q.since) where.push(gte(dqAnomalies.detectedAt, q.since));
  return db
    .select()
    .from(dqAnomalies)
    .where(and(...where))
    .orderBy(desc(dqAnomalies.detectedAt), desc(dqAnomalies.anomalyId))
    .limit(q.limit ?? 100)
    .offset(q.offset ?? 0);
}

export async function getAnomaly(db: Db, id: string): Promise<DqAnomalyRow | undefined> {
  const [row] = await db.select().from(dqAnomalies).where(eq(dqAnomalies.anomalyId, id));
  return row;
}

/**
 * Moves an anomaly from one of `from` to `to` (one conditional update, so two callers cannot both move it); a
 * false positive also puts its observation into the baseline and marks it as feedback. Undefined when it was not
 * in one of `from`.
 */
export async function moveAnomaly(
  db: Db,
  id: string,
  from: string[],
  to: string,
  by: string,
  at: Date,
): Promise<DqAnomalyRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(dqAnomalies)
      .set({ status: to, statusChangedAt: at, statusChangedBy: by })
      .where(and(eq(dqAnomalies.anomalyId, id), inArray(dqAnomalies.status, from)))
      .returning();
    if (row && to === 'false_positive')
      await tx
        .update(dqMetricObservations)
        .set({ inBaseline: true, falsePositive: true })
        .where(eq(dqMetricObservations.id, row.observationId));
    return row;
  });
}

// ---- inline rules ----

/** A stored rule in the engine's shape (InlineRule of activities/data-quality/logic/inline-rules). */
export function asInlineRule(r: DqInlineRuleRow) {
  return {
    id: r.ruleId,
    name: r.name,
    table_fqn: r.tableFqn,
    check_type: r.checkType,
    column: r.columnName,
    params: r.params,
    severity: r.severity,
    action: r.action,
  };
}

export async function createInlineRule(db: Db, row: typeof dqxInlineRules.$inferInsert): Promise<DqInlineRuleRow> {
  const [r] = await db.insert(dqxInlineRules).values(row).returning();
  return r;
}

export async function findInlineRule(db: Db, tableFqn: string, name: string): Promise<DqInlineRuleRow | undefined> {
  const [r] = await db
    .select()
    .from(dqxInlineRules)
    .where(and(eq(dqxInlineRules.tableFqn, tableFqn), eq(dqxInlineRules.name, name)));
  return r;
}

export async function listInlineRules(
  db: Db,
  q: { tableFqn?: string; active?: boolean; tablePrefix?: string } = {},
): Promise<DqInlineRuleRow[]> {
  const where: SQL[] = [];
  if (q.tableFqn) where.push(eq(dqxInlineRules.tableFqn, q.tableFqn));
  if (q.active !== undefined) where.push(eq(dqxInlineRules.active, q.active));
  if (q.tablePrefix)
    where.push(
      like(sql`lower(${dqxInlineRules.tableFqn})`, `${q.tablePrefix.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`),
    );
  return db
    .select()
    .from(dqxInlineRules)
    .where(and(...where))
    .orderBy(asc(dqxInlineRules.tableFqn), asc(dqxInlineRules.name));
}

export async function getInlineRule(db: Db, id: string): Promise<DqInlineRuleRow | undefined> {
  const [r] = await db.select().from(dqxInlineRules).where(eq(dqxInlineRules.ruleId, id));
  return r;
}

export async function setInlineRuleActive(db: Db, id: string, active: boolean): Promise<DqInlineRuleRow | undefined> {
  const [r] = await db
    .update(dqxInlineRules)
    .set({ active, updatedAt: new Date() })
    .where(eq(dqxInlineRules.ruleId, id))
    .returning();
  return r;
}

// ---- expectation suites ----

export async function createSuite(db: Db, row: typeof dqExpectationSuites.$inferInsert): Promise<DqSuiteRow> {
  const [r] = await db.insert(dqExpectationSuites).values(row).returning();
  return r;
}

export async function listSuites(db: Db): Promise<DqSuiteRow[]> {
  return db.select().from(dqExpectationSuites).orderBy(asc(dqExpectationSuites.name));
}

/** A suite by name, or by id. */
export async function getSuite(db: Db, nameOrId: string): Promise<DqSuiteRow | undefined> {
  const [r] = await db
    .select()
    .from(dqExpectationSuites)
    .where(sql`${dqExpectationSuites.name} = ${nameOrId} OR ${dqExpectationSuites.suiteId} = ${nameOrId}`)
    .limit(1);
  return r;
}

export async function saveSuiteValidation(db: Db, suiteId: string, validation: Record<string, unknown>): Promise<void> {
  await db
    .update(dqExpectationSuites)
    .set({ lastValidation: validation, updatedAt: new Date() })
    .where(eq(dqExpectationSuites.suiteId, suiteId));
}

// ---- schedules ----

export async function createSchedule(db: Db, row: typeof dqCheckSchedules.$inferInsert): Promise<DqScheduleRow> {
  const [r] = await db.insert(dqCheckSchedules).values(row).returning();
  return r;
}

export async function listSchedules(db: Db): Promise<DqScheduleRow[]> {
  return db.select().from(dqCheckSchedules).orderBy(asc(dqCheckSchedules.createdAt), asc(dqCheckSchedules.scheduleId));
}

export async function getSchedule(db: Db, id: string): Promise<DqScheduleRow | undefined> {
  const [r] = await db.select().from(dqCheckSchedules).where(eq(dqCheckSchedules.scheduleId, id));
  return r;
}

export async function setScheduleStatus(db: Db, id: string, status: string): Promise<DqScheduleRow | undefined> {
  const [r] = await db
    .update(dqCheckSchedules)
    .set({ status, updatedAt: new Date() })
    .where(eq(dqCheckSchedules.scheduleId, id))
    .returning();
  return r;
}

export async function deleteSchedule(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(dqCheckSchedules).where(eq(dqCheckSchedules.scheduleId, id)).returning();
  return rows.length > 0;
}

// ---- incidents ----

export type DqEventType =
  | 'gate_passed'
  | 'gate_failed'
  | 'rule_blocked'
  | 'rule_quarantined'
  | 'rule_logged'
  | 'anomaly_critical'
  | 'scheduled_run_failed';

/** Incidents (failed gate, blocking rule, critical anomaly, failed scheduled run) also become a notification. */
const INCIDENTS = new Set<DqEventType>(['gate_failed', 'rule_blocked', 'anomaly_critical', 'scheduled_run_failed']);

/** Records a typed DQ event; an incident also adds a `dq_incident` notification (GET /api/notifications). */
export async function recordDqEvent(
  db: Db | Tx,
  e: {
    type: DqEventType;
    tableFqn?: string | null;
    jobId?: string | null;
    message: string;
    payload: Record<string, unknown>;
  },
): Promise<DqEventRow> {
  const [row] = await db
    .insert(dqEvents)
    .values({
      type: e.type,
      tableFqn: e.tableFqn ?? null,
      jobId: e.jobId ?? null,
      message: e.message,
      payload: e.payload,
    })
    .returning();
  if (INCIDENTS.has(e.type))
    await addNotification(db as Db, {
      type: 'dq_incident',
      message: e.message,
      status: e.type,
      jobId: e.jobId ?? null,
    });
  return row;
}

export async function listDqEvents(db: Db, q: { type?: string; jobId?: string; tableFqn?: string; limit?: number }) {
  const where: SQL[] = [];
  if (q.type) where.push(eq(dqEvents.type, q.type));
  if (q.jobId) where.push(eq(dqEvents.jobId, q.jobId));
  if (q.tableFqn) where.push(eq(dqEvents.tableFqn, q.tableFqn));
  return db
    .select()
    .from(dqEvents)
    .where(and(...where))
    .orderBy(asc(dqEvents.id))
    .limit(q.limit ?? 200);
}
