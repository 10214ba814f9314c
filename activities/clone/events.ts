import { cloneWriter } from '../../store/clone/clone-writes';
import type { RunLogLine } from '../../store/jobs/run-logs';
import type { Db } from '../../store/db';
import type { CloneEventType } from '../../workflows/clone/definitions';
import { logJobEvent } from '../jobs/event-log';

/**
 * Clone events are run_logs rows with `data.event` set; the job API streams them. One helper so every
 * event has the same shape: `{ event, ...fields }`.
 */
export interface CloneEvent {
  event: CloneEventType;
  message: string;
  level?: 'info' | 'warn' | 'error';
  data?: Record<string, unknown>;
}

/** A clone event as a run_logs row; the event is also a line of the worker's log (with the job's fields). */
export function eventLine(e: CloneEvent): RunLogLine {
  logJobEvent(e);
  return {
    level: e.level ?? (e.event === 'warning' ? 'warn' : e.event === 'error' ? 'error' : 'info'),
    message: e.message,
    data: { event: e.event, ...e.data },
  };
}

export async function emitEvents(db: Db, jobId: string, events: CloneEvent[]): Promise<void> {
  // Group-committed with the table results of concurrent activities (store/clone/clone-writes.ts).
  await cloneWriter(db).write({ logs: [{ jobId, lines: events.map(eventLine) }] });
}

export function warningEvents(warnings: string[], data: Record<string, unknown> = {}): CloneEvent[] {
  return warnings.map((w) => ({ event: 'warning' as const, message: w, data }));
}
