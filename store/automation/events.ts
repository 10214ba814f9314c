import { and, asc, desc, eq, gt, inArray, max } from 'drizzle-orm';
import type { Db } from '../db';
import { dqEvents } from '../data-quality/ops-tables';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * The typed events playbooks react to. They share the data-quality `dq_events` table (the data-quality types
 * gate_failed, rule_blocked, scheduled_run_failed and anomaly_critical are events too); `payload` holds the
 * type's fields and `severity`.
 */
export const AUTOMATION_EVENT_TYPES = [
  'job.failed',
  'job.succeeded',
  'job.cancelled',
  'dq.failure',
  'dq.anomaly',
  'schema.drift',
  'contract.violation',
  'sla_breach',
] as const;
export type AutomationEventType = (typeof AUTOMATION_EVENT_TYPES)[number];

export interface AutomationEvent {
  type: AutomationEventType;
  /** info | warning | error | critical (default by type: failures error, violations and drift warning). */
  severity?: 'info' | 'warning' | 'error' | 'critical';
  tableFqn?: string | null;
  jobId?: string | null;
  message: string;
  /** The type's fields, as a playbook condition reads them (`event.<field>`). */
  data?: Record<string, unknown>;
}

export type EventRow = typeof dqEvents.$inferSelect;

const DEFAULT_SEVERITY: Record<AutomationEventType, NonNullable<AutomationEvent['severity']>> = {
  'job.failed': 'error',
  'job.succeeded': 'info',
  'job.cancelled': 'warning',
  'dq.failure': 'error',
  'dq.anomaly': 'warning',
  'schema.drift': 'warning',
  'contract.violation': 'error',
  sla_breach: 'error',
};

const listeners = new Set<() => void>();

/**
 * Records an event in the caller's transaction, so it exists exactly when its cause does (a job's end, a
 * contract's failed validation). Call `eventsCommitted()` after the transaction commits to wake the dispatcher
 * at once; without it the dispatcher still finds the event within its 5 s poll.
 */
export async function recordEvent(tx: Db | Tx, e: AutomationEvent): Promise<EventRow> {
  const [row] = await tx
    .insert(dqEvents)
    .values({
      type: e.type,
      tableFqn: e.tableFqn ?? null,
      jobId: e.jobId ?? null,
      message: e.message,
      payload: { severity: e.severity ?? DEFAULT_SEVERITY[e.type], ...(e.data ?? {}) },
    })
    .returning();
  return row;
}

/** Best effort: tells this process's dispatcher signaller that events were committed. */
export function eventsCommitted(): void {
  for (const fn of listeners) {
    try {
      fn();
    } catch {
      // A wake-up is an optimisation; the dispatcher's poll finds the event anyway.
    }
  }
}

/** Registers a wake-up (the worker signals its dispatcher); returns the unregister function. */
export function onEventsCommitted(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Events after `afterId` of the given types, oldest first. */
export async function eventsAfter(db: Db, afterId: number, types: readonly string[], limit = 200) {
  return db
    .select()
    .from(dqEvents)
    .where(and(gt(dqEvents.id, afterId), inArray(dqEvents.type, [...types])))
    .orderBy(asc(dqEvents.id))
    .limit(limit);
}

export async function latestEventId(db: Db): Promise<number> {
  const [row] = await db.select({ id: max(dqEvents.id) }).from(dqEvents);
  return Number(row?.id ?? 0);
}

/** The newest event of a type about one table (a producer compares with it to avoid repeating itself). */
export async function latestEventOf(
  db: Db | Tx,
  type: AutomationEventType,
  tableFqn: string,
): Promise<EventRow | undefined> {
  const [row] = await db
    .select()
    .from(dqEvents)
    .where(and(eq(dqEvents.type, type), eq(dqEvents.tableFqn, tableFqn)))
    .orderBy(desc(dqEvents.id))
    .limit(1);
  return row;
}
