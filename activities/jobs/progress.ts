import type { Store } from '../../store/db';
import { setJobProgress } from '../../store/jobs/jobs';
import { appendRunLog } from '../../store/jobs/run-logs';
import type { JobEventType } from '../../schemas/jobs';
import { logJobEvent } from './event-log';

/** An event a job workflow writes to its run log (streamed by the WebSocket with `type` = event). */
export interface JobEventInput {
  event: Exclude<JobEventType, 'progress' | 'log'>;
  message: string;
  level?: 'info' | 'warn' | 'error';
  data?: Record<string, unknown>;
}

/** The kernel's activities for any job type: events into the run log, progress into the job row. */
export function createProgressActivities(store: Store) {
  return {
    async appendJobEvents(jobId: string, events: JobEventInput[]): Promise<void> {
      events.forEach(logJobEvent);
      await appendRunLog(
        store.db,
        jobId,
        events.map((e) => ({
          level: e.level ?? (e.event === 'error' ? 'error' : e.event === 'warning' ? 'warn' : 'info'),
          message: e.message,
          data: { event: e.event, ...e.data },
        })),
      );
    },

    /** `{completed, total, …}` of the job's units of work; what the job record and the WebSocket show. */
    async reportJobProgress(jobId: string, progress: Record<string, unknown>): Promise<void> {
      await setJobProgress(store.db, jobId, progress);
    },
  };
}
