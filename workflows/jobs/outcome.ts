import { CancelledFailure, ChildWorkflowFailure, TerminatedFailure, TimeoutFailure } from '@temporalio/common';
import type { CloneJobStatus, CloneSummary } from '../clone/definitions';
import type { JobEnd, RunningJob } from './definitions';

const FINAL: ReadonlySet<CloneJobStatus> = new Set(['completed', 'failed', 'cancelled', 'aborted']);

export function timeoutMessage(minutes: number): string {
  return `the job exceeded request_timeout_minutes (${minutes}) and was cancelled`;
}

/** The end of a job whose clone workflow returned a summary. */
export function endFromSummary(jobId: string, summary: CloneSummary): JobEnd {
  const status = FINAL.has(summary.status) ? (summary.status as JobEnd['status']) : 'completed';
  return { jobId, status, summary, error: summary.error ?? null };
}

/** The end of a job whose clone workflow failed, was cancelled, timed out or was terminated. */
export function endFromFailure(jobId: string, err: unknown): JobEnd {
  const cause = err instanceof ChildWorkflowFailure ? err.cause : err;
  if (cause instanceof CancelledFailure) return { jobId, status: 'cancelled', error: 'cancelled by request' };
  if (cause instanceof TimeoutFailure) return { jobId, status: 'aborted', error: 'the job ran past its time limit' };
  if (cause instanceof TerminatedFailure) return { jobId, status: 'failed', error: 'the job was terminated' };
  const message = cause instanceof Error ? cause.message : String(cause);
  return { jobId, status: 'failed', error: message };
}

/** A job the queue cancelled for running too long ends as aborted, not as a user cancel. */
export function adjustForTimeout(entry: RunningJob, end: JobEnd, timeoutMinutes: number): JobEnd {
  if (!entry.timedOut || (end.status !== 'cancelled' && end.status !== 'aborted')) return end;
  const error = timeoutMessage(timeoutMinutes);
  const summary = end.summary ? { ...end.summary, status: 'aborted' as const, error } : end.summary;
  return { ...end, status: 'aborted', error, summary };
}
