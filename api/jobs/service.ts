import { WorkflowNotFoundError } from '@temporalio/common';
import { eq } from 'drizzle-orm';
import { isFinalJobStatus, type JobProgress, type JobStatus } from '../../schemas/jobs';
import { recordAudit } from '../../store/audit/repo';
import {
  createJob,
  finishJob,
  getJob,
  listJobs,
  markJobCancelling,
  queueOrder,
  type JobRow,
  type NewJob,
} from '../../store/jobs/jobs';
import { appendRunLog, readRunLog } from '../../store/jobs/run-logs';
import { jobs, runLogs } from '../../store/schema';
import type { WaitingJob } from '../../workflows/jobs/definitions';
import type { AppDeps } from '../deps';
import { currentCaller } from '../middleware/auth';
import { HttpError, conflict, notFound } from '../middleware/http-error';
import { builtInJobTypes } from './job-types';
import {
  cancelQueuedJob,
  enqueueJob,
  QueueRejectedError,
  QueueUnavailableError,
  type QueueClientDeps,
} from './queue-client';
import { jobTypeRegistry, type JobTypeDefinition, type JobTypeRegistry } from './registry';
import { sharedJobReads } from './shared-reads';
import { jobListItem, progressOf, progressOfPage } from './view';
import { annotateJob } from '../../platform/observability/log-context';

const registries = new WeakMap<AppDeps, JobTypeRegistry>();

/** The job types this app serves: `deps.jobTypes` (tests add their own), else the built-in ones. */
export function jobTypes(deps: AppDeps): JobTypeRegistry {
  let r = registries.get(deps);
  if (!r) registries.set(deps, (r = jobTypeRegistry(deps.jobTypes ?? builtInJobTypes)));
  return r;
}

export function jobType(deps: AppDeps, type: string): JobTypeDefinition {
  const def = jobTypes(deps).get(type);
  if (!def) throw new HttpError(500, 'UNKNOWN_JOB_TYPE', `job type ${type} is not registered`);
  return def;
}

export function queueDepsFor(deps: AppDeps, def: JobTypeDefinition): QueueClientDeps {
  if (!deps.temporal)
    throw new HttpError(503, 'TEMPORAL_UNAVAILABLE', `Temporal is not configured; ${def.type} jobs cannot run`);
  return {
    client: deps.temporal.client,
    taskQueue: deps.config.temporal.task_queue,
    jobType: def.type,
    limits: def.limits(deps.config),
  };
}

export interface JobSubmission {
  jobId: string;
  input: unknown;
  createdAt: Date;
  /** Row fields besides id, type, status and creation time (catalogs, the stored request without secrets). */
  row?: Omit<NewJob, 'jobId' | 'jobType' | 'status' | 'createdAt'>;
  searchAttributes?: WaitingJob['searchAttributes'];
  /** Lines the job's log starts with (what building the job changed or ignored, …). */
  warnings?: string[];
}

/**
 * Accepts a job of any type: validates its input, writes the jobs row (queued), then enqueues it in the type's
 * durable queue. A refused enqueue removes the row again: 429 QUEUE_FULL, 409 for a duplicate id, 503 when no
 * worker answers.
 */
export async function submitJob(deps: AppDeps, def: JobTypeDefinition, job: JobSubmission) {
  try {
    return await queueJob(deps, def, job);
  } finally {
    sharedJobReads(deps).invalidate(); // reads from now on see the new row (or its removal)
  }
}

async function queueJob(deps: AppDeps, def: JobTypeDefinition, job: JobSubmission) {
  const queue = queueDepsFor(deps, def);
  const input = def.inputSchema.parse(job.input);
  const { jobId } = job;
  annotateJob(jobId, def.type); // this request's span and log lines, and the job's trace, carry the job's fields
  const user = job.row?.user ?? currentCaller().name; // who started it: the API key's name
  await createJob(deps.store.db, {
    ...job.row,
    user,
    jobId,
    jobType: def.type,
    status: 'queued',
    createdAt: job.createdAt,
  });
  if (job.warnings?.length)
    await appendRunLog(
      deps.store.db,
      jobId,
      job.warnings.map((message) => ({ level: 'warn', message, data: { event: 'warning' } })),
    );
  try {
    const { position } = await enqueueJob(queue, {
      jobId,
      workflowType: def.workflowType,
      input,
      createdAt: job.createdAt.toISOString(),
      searchAttributes: job.searchAttributes,
    });
    await recordAudit(deps.store.db, {
      jobId,
      action: `${def.type}_queued`,
      status: 'queued',
      details: { position, request: job.row?.request ?? null },
    });
    const label = def.type.charAt(0).toUpperCase() + def.type.slice(1);
    const message =
      position === 0 ? `${label} job accepted; it starts now` : `${label} job queued at position ${position}`;
    deps.logger.info({ event: 'queued', queue_position: position }, message);
    return { job_id: jobId, status: 'queued' as const, message, queue_position: position };
  } catch (err) {
    await deps.store.db.delete(jobs).where(eq(jobs.jobId, jobId));
    await deps.store.db.delete(runLogs).where(eq(runLogs.jobId, jobId));
    if (err instanceof QueueUnavailableError) throw new HttpError(503, 'WORKER_UNAVAILABLE', err.message);
    if (!(err instanceof QueueRejectedError)) throw err;
    await recordAudit(deps.store.db, {
      jobId,
      action: `${def.type}_rejected`,
      status: 'rejected',
      error: err.message,
    });
    if (err.reason === 'duplicate') throw conflict(err.message);
    throw new HttpError(429, 'QUEUE_FULL', `${err.message}; retry when a job finishes`, [
      {
        path: 'queue',
        message: `max_concurrent ${queue.limits.maxConcurrent}, max_queue_size ${queue.limits.maxQueueSize}`,
      },
    ]);
  }
}

/** The job row, or 404 (also when `type` is given and the job is of another type; a list names several). */
export async function requireJob(deps: AppDeps, jobId: string, type?: string | readonly string[]): Promise<JobRow> {
  const row = await getJob(deps.store.db, jobId);
  const types = type === undefined ? undefined : typeof type === 'string' ? [type] : type;
  if (!row || (types && !types.includes(row.jobType))) throw notFound(`No ${types ? `${types[0]} ` : ''}job ${jobId}`);
  return row;
}

/** 0 when the job holds (or is about to take) a run slot, else its place in the waiting list; null once started. */
async function queuePosition(deps: AppDeps, def: JobTypeDefinition | undefined, row: JobRow): Promise<number | null> {
  if (row.status !== 'queued' || !def) return null;
  const { queued, active } = await queueOrder(deps.store.db, row.jobType);
  const free = Math.max(0, def.limits(deps.config).maxConcurrent - active);
  return Math.max(0, queued.indexOf(row.jobId) + 1 - free);
}

/**
 * A job as recorded: everything comes from the store (status, progress, log), so a read never waits on a busy
 * workflow or worker.
 */
export async function jobView(deps: AppDeps, row: JobRow, knownProgress?: JobProgress) {
  const def = jobTypes(deps).get(row.jobType);
  const [progress, position] = await Promise.all([
    knownProgress ?? progressOf(def, deps.store.db, row),
    queuePosition(deps, def, row),
  ]);
  return { ...jobListItem(row, progress, def), queue_position: position };
}

export async function getJobRecord(deps: AppDeps, jobId: string) {
  const [row, logs] = await Promise.all([requireJob(deps, jobId), readRunLog(deps.store.db, jobId)]);
  return { ...(await jobView(deps, row)), result: row.summary ?? null, logs: logs.map(logLineOf) };
}

const logLineOf = (r: { ts: Date; level: string; message: string }) =>
  `${r.ts.toISOString()} ${r.level.toUpperCase()} ${r.message}`;

export async function listJobRecords(
  deps: AppDeps,
  filter: { type?: string; status?: JobStatus; limit: number; offset: number },
) {
  const rows = await listJobs(deps.store.db, {
    jobType: filter.type,
    status: filter.status,
    limit: filter.limit,
    offset: filter.offset,
  });
  const defOf = (type: string) => jobTypes(deps).get(type);
  const progress = await progressOfPage(defOf, deps.store.db, rows);
  return rows.map((row, i) => jobListItem(row, progress[i], defOf(row.jobType)));
}

/**
 * Cancels a job of any type. The row turns `cancelling` at once; a queued job is removed and recorded
 * `cancelled` by its queue before this returns; a running one stays `cancelling` until its workflow has stopped
 * and its end (status, audit row, notification) is recorded with `completed_at`.
 */
export async function cancelJob(deps: AppDeps, jobId: string, type?: string | readonly string[]) {
  try {
    return await requestCancel(deps, jobId, type);
  } finally {
    sharedJobReads(deps).invalidate(); // reads from now on see the job cancelling (or cancelled)
  }
}

async function requestCancel(deps: AppDeps, jobId: string, type?: string | readonly string[]) {
  const row = await requireJob(deps, jobId, type);
  const ended = () => conflict(`${row.jobType} job ${jobId} already ended (${row.status})`);
  if (isFinalJobStatus(row.status)) throw ended();
  const def = jobType(deps, row.jobType);
  const queue = queueDepsFor(deps, def);
  if (!(await markJobCancelling(deps.store.db, jobId))) throw ended();
  const outcome = await cancelQueuedJob(queue, jobId);
  if (outcome === 'unknown') await cancelOutsideQueue(deps, queue, jobId);
  await recordAudit(deps.store.db, {
    jobId,
    action: `${row.jobType}_cancel_requested`,
    status: 'cancelling',
    details: { was: outcome },
  });
  const now = await requireJob(deps, jobId);
  const status = now.status === 'cancelled' ? ('cancelled' as const) : ('cancelling' as const);
  const message =
    status === 'cancelled'
      ? 'Cancelled before it started'
      : 'Cancel requested; the job ends as cancelled once its work has stopped (watch completed_at)';
  return { job_id: jobId, status, message };
}

/** A job its queue does not hold (the queue was lost, or the job is just ending): cancel or settle it directly. */
async function cancelOutsideQueue(deps: AppDeps, queue: QueueClientDeps, jobId: string): Promise<void> {
  const handle = queue.client.workflow.getHandle(jobId);
  try {
    const d = await handle.describe();
    if (d.status.name === 'RUNNING') return void (await handle.cancel());
    // Closed, and its queue will record the end if it is alive; if it is not, the row says how it closed.
    const closed: Record<string, string> = { COMPLETED: 'completed', CANCELLED: 'cancelled', TIMED_OUT: 'aborted' };
    const latest = await getJob(deps.store.db, jobId);
    if (latest && !isFinalJobStatus(latest.status))
      await finishJob(deps.store.db, jobId, { status: closed[d.status.name] ?? 'failed', error: null });
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    await finishJob(deps.store.db, jobId, { status: 'cancelled', error: 'cancelled; the job was not in its queue' });
  }
}
