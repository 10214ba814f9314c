import type { Store } from '../../store/db';
import { getJob } from '../../store/jobs/jobs';
import { readRunLog, type RunLogRow } from '../../store/jobs/run-logs';
import { isFinal } from './job-view';

/**
 * A job event as streamed by the WebSocket and GET /api/clone/{id}/logs: the run-log row's data flattened,
 * with `type` taken from data.event (status, table_started, table_finished, schema_finished, retry, warning,
 * completed, error; plain log lines are `log`) and `seq` the row id, increasing in the order things happened.
 */
export interface JobEvent {
  type: string;
  job_id: string;
  seq: number;
  timestamp: string;
  level: string;
  message: string;
  /** True on the last event of a job (its recorded end). */
  final?: boolean;
  [key: string]: unknown;
}

export function toEvent(row: RunLogRow): JobEvent {
  const { event, ...data } = row.data ?? {};
  return {
    ...data,
    type: typeof event === 'string' ? event : 'log',
    job_id: row.jobId,
    seq: row.id,
    timestamp: row.ts.toISOString(),
    level: row.level,
    message: row.message,
  };
}

export interface TailOptions {
  intervalMs?: number;
  signal: AbortSignal;
  /** Stop after the rows present now instead of following the job. */
  follow?: boolean;
}

/**
 * Yields a job's events in order, then follows new ones (polling the run log) until the job's final event,
 * or until the job row is final and nothing more is left, or until `signal` aborts.
 */
export async function* tailJobEvents(store: Store, jobId: string, opts: TailOptions): AsyncGenerator<JobEvent> {
  const interval = opts.intervalMs ?? 300;
  let after = 0;
  let lastChance = false;
  while (!opts.signal.aborted) {
    const rows = await readRunLog(store.db, jobId, { afterId: after, limit: 500 });
    for (const row of rows) {
      after = row.id;
      const event = toEvent(row);
      yield event;
      if (event.final) return;
    }
    if (rows.length === 500) continue;
    if (opts.follow === false || lastChance) return;
    const job = await getJob(store.db, jobId);
    // A final row with no final event (e.g. a job cancelled outside the queue): read once more, then stop.
    if (!job || isFinal(job.status)) lastChance = true;
    else await pause(interval, opts.signal);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
