import { WorkflowNotFoundError } from '@temporalio/common';
import { eq } from 'drizzle-orm';
import type { CloneRequestInput } from '../../schemas/clone';
import { recordAudit } from '../../store/audit/repo';
import { createJob, finishJob, getJob, listJobs, type JobRow } from '../../store/jobs/jobs';
import { appendRunLog, readRunLog } from '../../store/jobs/run-logs';
import { jobs, runLogs } from '../../store/schema';
import type { AppDeps } from '../deps';
import { HttpError, conflict, notFound } from '../middleware/http-error';
import { buildCloneJob } from './build-input';
import { JobInputError } from './errors';
import { newCloneJobId } from '../jobs/job-id';
import { isFinal, effectiveStatus, jobListItem, jobRecord, progressOf } from '../jobs/job-view';
import { liveState } from '../jobs/live-status';
import {
  cancelCloneJob,
  enqueueClone,
  queueSnapshot,
  QueueRejectedError,
  QueueUnavailableError,
  type QueueClientDeps,
} from '../jobs/queue-client';

export function queueDepsOf(deps: AppDeps): QueueClientDeps {
  if (!deps.temporal)
    throw new HttpError(503, 'TEMPORAL_UNAVAILABLE', 'Temporal is not configured; clone jobs cannot run');
  const c = deps.config.clone;
  return {
    client: deps.temporal.client,
    taskQueue: deps.config.temporal.task_queue,
    limits: {
      maxConcurrent: c.max_concurrent,
      maxQueueSize: c.max_queue_size,
      requestTimeoutMinutes: c.request_timeout_minutes,
    },
  };
}

/**
 * Accepts a clone request: writes the jobs row (status queued, request without secrets), then enqueues the
 * job in the durable queue. A refused enqueue removes the row again and answers 429 QUEUE_FULL.
 */
export async function submitClone(deps: AppDeps, request: CloneRequestInput) {
  const queue = queueDepsOf(deps);
  const now = new Date();
  const jobId = newCloneJobId(now);
  const built = await buildCloneJob(deps, request, jobId, now).catch((err: unknown) => {
    if (!(err instanceof JobInputError)) throw err;
    const status = err.field.startsWith('workspace.') ? 422 : 400;
    throw new HttpError(status, 'VALIDATION_ERROR', err.message, [{ path: `body.${err.field}`, message: err.message }]);
  });
  const { options } = built.input;
  await createJob(deps.store.db, {
    jobId,
    jobType: 'clone',
    status: 'queued',
    sourceCatalog: options.source_catalog,
    destinationCatalog: options.destination_catalog,
    cloneType: options.clone_type,
    request: built.storedRequest,
    createdAt: now,
  });
  // What the template changed (schemas left out, schema_only mapping) shows in the job's log from the start.
  if (built.settings.warnings.length)
    await appendRunLog(
      deps.store.db,
      jobId,
      built.settings.warnings.map((message) => ({ level: 'warn', message, data: { event: 'warning' } })),
    );
  try {
    const { position } = await enqueueClone(queue, { jobId, input: built.input });
    await recordAudit(deps.store.db, {
      jobId,
      action: 'clone_queued',
      status: 'queued',
      details: { position, request: built.storedRequest },
    });
    const message = position === 0 ? 'Clone job accepted; it starts now' : `Clone job queued at position ${position}`;
    return { job_id: jobId, status: 'queued' as const, message, queue_position: position };
  } catch (err) {
    await deps.store.db.delete(jobs).where(eq(jobs.jobId, jobId));
    await deps.store.db.delete(runLogs).where(eq(runLogs.jobId, jobId));
    if (err instanceof QueueUnavailableError) throw new HttpError(503, 'WORKER_UNAVAILABLE', err.message);
    if (!(err instanceof QueueRejectedError)) throw err;
    await recordAudit(deps.store.db, { jobId, action: 'clone_rejected', status: 'rejected', error: err.message });
    if (err.reason === 'duplicate') throw conflict(err.message);
    throw new HttpError(429, 'QUEUE_FULL', `${err.message}; retry when a job finishes`, [
      {
        path: 'queue',
        message: `max_concurrent ${queue.limits.maxConcurrent}, max_queue_size ${queue.limits.maxQueueSize}`,
      },
    ]);
  }
}

export async function requireJob(deps: AppDeps, jobId: string): Promise<JobRow> {
  const row = await getJob(deps.store.db, jobId);
  if (!row || row.jobType !== 'clone') throw notFound(`No clone job ${jobId}`);
  return row;
}

export async function getCloneJob(deps: AppDeps, jobId: string) {
  const row = await requireJob(deps, jobId);
  const logs = await readRunLog(deps.store.db, jobId);
  if (isFinal(row.status)) return jobRecord(row, row.status, null, logs, null);
  const queue = queueDepsOf(deps);
  const [live, snapshot] = await Promise.all([liveState(queue.client, jobId), queueSnapshot(queue)]);
  const waiting = snapshot?.waiting.find((w) => w.jobId === jobId);
  return jobRecord(row, effectiveStatus(row, live, Boolean(waiting)), live, logs, waiting?.position ?? null);
}

export async function listCloneJobs(deps: AppDeps, filter: { status?: string; limit: number; offset: number }) {
  const rows = await listJobs(deps.store.db, {
    jobType: 'clone',
    status: filter.status,
    limit: filter.limit,
    offset: filter.offset,
  });
  const open = rows.filter((r) => !isFinal(r.status));
  const queue = open.length && deps.temporal ? queueDepsOf(deps) : null;
  const snapshot = queue ? await queueSnapshot(queue).catch(() => null) : null;
  return Promise.all(
    rows.map(async (row) => {
      if (isFinal(row.status) || !queue) return jobListItem(row, row.status, progressOf(row.summary as never, null));
      const waiting = snapshot?.waiting.some((w) => w.jobId === row.jobId) ?? false;
      const live = waiting ? null : await liveState(queue.client, row.jobId).catch(() => null);
      return jobListItem(row, effectiveStatus(row, live, waiting), progressOf(null, live?.progress ?? null));
    }),
  );
}

/** Cancels a queued job (it never starts) or a running one (its activities see the cancellation). */
export async function cancelClone(deps: AppDeps, jobId: string) {
  const row = await requireJob(deps, jobId);
  if (isFinal(row.status)) throw conflict(`Clone job ${jobId} already ended (${row.status})`);
  const queue = queueDepsOf(deps);
  const outcome = await cancelCloneJob(queue, jobId);
  if (outcome === 'unknown') {
    // Not in the queue: a clone whose queue was lost, or a row whose workflow never started.
    try {
      await queue.client.workflow.getHandle(jobId).cancel();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      await finishJob(deps.store.db, jobId, { status: 'cancelled', error: 'cancelled; the job was not in the queue' });
    }
  }
  await recordAudit(deps.store.db, {
    jobId,
    action: 'clone_cancel_requested',
    status: 'cancelled',
    details: { was: outcome },
  });
  return { status: 'cancelled' as const, job_id: jobId };
}
