import { Context } from '@temporalio/activity';

/** A run-log event as the worker's log shows it. */
export interface LoggedEvent {
  event: string;
  message: string;
  level?: 'info' | 'warn' | 'error';
}

/**
 * Writes a job's run-log event to the worker's log too, through the activity's context logger, whose lines carry
 * the job's job_id, job_type, workflow_id (and trace_id) from the job interceptors. Outside an activity (a test
 * calling a helper directly) there is no job to name, and nothing is written.
 */
export function logJobEvent(e: LoggedEvent): void {
  let ctx: Context;
  try {
    ctx = Context.current();
  } catch {
    return;
  }
  const level = e.level ?? (e.event === 'error' ? 'error' : e.event === 'warning' ? 'warn' : 'info');
  ctx.log[level](e.message, { event: e.event });
}
