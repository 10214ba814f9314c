import type { CloneRequestInput } from '../../schemas/clone';
import type { JobStatus } from '../../schemas/jobs';
import { cloneProgressCounts } from '../../store/clone/clone-state';
import { readRunLog } from '../../store/jobs/run-logs';
import type { CloneSummary } from '../../workflows/clone/definitions';
import type { AppDeps } from '../deps';
import { newCloneJobId } from '../jobs/job-id';
import { jobType, jobView, listJobRecords, requireJob, submitJob } from '../jobs/service';
import { logLine } from '../jobs/view';
import { assertCloneAllowed } from '../governance/clone-access';
import { currentCaller } from '../middleware/auth';
import { HttpError } from '../middleware/http-error';
import { buildCloneJob } from './build-input';
import { cloneProgress } from './job-type';
import { JobInputError } from './errors';

export const requireCloneJob = (deps: AppDeps, jobId: string) => requireJob(deps, jobId, 'clone');

/** Accepts a clone request: builds the job (template, config, request merged; secrets left out) and queues it. */
export async function submitClone(deps: AppDeps, request: CloneRequestInput) {
  await assertCloneAllowed(deps, currentCaller(), request); // access policies and where_clauses SQL: 403
  const def = jobType(deps, 'clone');
  const now = new Date();
  const jobId = newCloneJobId(now);
  const built = await buildCloneJob(deps, request, jobId, now).catch((err: unknown) => {
    if (!(err instanceof JobInputError)) throw err;
    const own = 'status' in err && typeof err.status === 'number' ? err.status : undefined;
    const status = own ?? (err.field.startsWith('workspace.') ? 422 : 400);
    const code = status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR';
    throw new HttpError(status, code, err.message, [{ path: `body.${err.field}`, message: err.message }]);
  });
  const { options } = built.input;
  return submitJob(deps, def, {
    jobId,
    input: built.input,
    createdAt: now,
    row: {
      sourceCatalog: options.source_catalog,
      destinationCatalog: options.destination_catalog,
      cloneType: options.clone_type,
      request: built.storedRequest,
    },
    searchAttributes: { sourceCatalog: options.source_catalog, destinationCatalog: options.destination_catalog },
    // What the template changed (schemas left out, schema_only mapping) shows in the job's log from the start.
    warnings: built.settings.warnings,
  });
}

/**
 * The clone job record (GET /api/clone/{job_id}): the kernel's view of the row, the summary fields, logs and
 * server-mode aliases. Served from the store only.
 */
export async function getCloneJob(deps: AppDeps, jobId: string) {
  // The row, the log and the progress counts are read at once: one round trip to the store per poll of a job.
  const [row, logs, counts] = await Promise.all([
    requireCloneJob(deps, jobId),
    readRunLog(deps.store.db, jobId),
    cloneProgressCounts(deps.store.db, jobId),
  ]);
  const view = await jobView(deps, row, cloneProgress(row, counts));
  const summary = (row.summary ?? null) as Partial<CloneSummary> | null;
  const { jobId: _id, status: _s, ...summaryFields } = summary ?? {};
  const start = row.startedAt;
  const end = row.completedAt;
  return {
    ...summaryFields,
    ...view,
    id: row.jobId,
    source: row.sourceCatalog,
    destination: row.destinationCatalog,
    result: summary ? { ...summaryFields } : null,
    logs: logs.map(logLine),
    duration_seconds: summary?.duration_seconds ?? (start && end ? (end.getTime() - start.getTime()) / 1000 : null),
    request: row.request,
  };
}

export async function listCloneJobs(deps: AppDeps, filter: { status?: JobStatus; limit: number; offset: number }) {
  return listJobRecords(deps, { ...filter, type: 'clone' });
}
