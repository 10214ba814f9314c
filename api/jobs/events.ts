import type { Store } from '../../store/db';
import { getJob } from '../../store/jobs/jobs';
import { readRunLog, type RunLogRow } from '../../store/jobs/run-logs';
import { isFinalJobStatus, JOB_EVENT_TYPES, type JobEvent, type JobEventType } from '../../schemas/jobs';

export type { JobEvent } from '../../schemas/jobs';

const levels = new Set(['info', 'warn', 'error']);

/**
 * A run-log row as a job event (schemas/jobs.ts JobEventSchema): the row's data flattened, `type` from
 * data.event (plain log lines are `log`), `seq` the row id, `ts` the row's time, `message` never empty.
 */
export function toEvent(row: RunLogRow): JobEvent {
  const { event, ...data } = row.data ?? {};
  const type: JobEventType = (JOB_EVENT_TYPES as readonly unknown[]).includes(event) ? (event as JobEventType) : 'log';
  const message =
    row.message.trim() || (type === 'status' && typeof data.status === 'string' ? `status ${data.status}` : type);
  return {
    ...data,
    type,
    job_id: row.jobId,
    seq: row.id,
    ts: row.ts.toISOString(),
    level: (levels.has(row.level) ? row.level : 'info') as JobEvent['level'],
    message,
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
    if (!job || isFinalJobStatus(job.status)) lastChance = true;
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
