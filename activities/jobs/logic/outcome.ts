import { CancelledFailure, TerminatedFailure, TimeoutFailure } from '@temporalio/common';
import { isFinalJobStatus } from '../../../schemas/jobs';
import { rootCauseMessage } from './root-cause';
import type { JobEnd, JobResult, RunningJob } from '../../../workflows/jobs/definitions';

export function timeoutMessage(minutes: number): string {
  return `the job exceeded request_timeout_minutes (${minutes}) and was cancelled`;
}

/** The end of a job whose workflow returned a result (its own `status`, `completed` when it has none). */
export function endFromResult(jobId: string, result: JobResult | null | undefined): JobEnd {
  const status = result?.status && isFinalJobStatus(result.status) ? result.status : 'completed';
  return { jobId, status, summary: result ?? null, error: result?.error ?? null };
}

/** The end of a job whose workflow failed, was cancelled, timed out or was terminated: the root cause. */
export function endFromFailure(jobId: string, err: unknown): JobEnd {
  const cause = innermostTemporalFailure(err);
  if (cause instanceof CancelledFailure) return { jobId, status: 'cancelled', error: 'cancelled by request' };
  if (cause instanceof TimeoutFailure) return { jobId, status: 'aborted', error: 'the job ran past its time limit' };
  if (cause instanceof TerminatedFailure)
    return { jobId, status: 'failed', error: `the job was terminated: ${cause.message}` };
  return { jobId, status: 'failed', error: rootCauseMessage(err) };
}

/** The first cancel/timeout/terminate failure in the chain, else the error itself. */
function innermostTemporalFailure(err: unknown): unknown {
  for (let e = err; e instanceof Error; e = (e as Error & { cause?: unknown }).cause) {
    if (e instanceof CancelledFailure || e instanceof TimeoutFailure || e instanceof TerminatedFailure) return e;
  }
  return err;
}

/**
 * A job the queue cancelled for running too long ends as aborted; a job whose cancel was requested ends as
 * cancelled even when it had to be terminated because it did not stop in time.
 */
export function adjustForCancel(entry: RunningJob, end: JobEnd, timeoutMinutes: number): JobEnd {
  if (entry.cancelRequestedAtMs === undefined) return end;
  const terminated = end.status === 'failed' && (end.error ?? '').startsWith('the job was terminated');
  if (entry.timedOut && (end.status === 'cancelled' || end.status === 'aborted' || terminated)) {
    const error = timeoutMessage(timeoutMinutes);
    const summary = end.summary ? { ...end.summary, status: 'aborted' as const, error } : end.summary;
    return { ...end, status: 'aborted', error, summary };
  }
  if (terminated) return { ...end, status: 'cancelled', error: `cancelled by request (${end.error})` };
  return end;
}
