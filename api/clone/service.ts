import type { CloneRequestInput } from '../../schemas/clone';
import type { JobStatus } from '../../schemas/jobs';
import { readCloneJobsPage, readCloneRecord } from '../../store/clone/clone-record';
import type { CloneSummary } from '../../workflows/clone/definitions';
import type { AppDeps } from '../deps';
import { newCloneJobId } from '../jobs/job-id';
import { jobType, jobView, requireJob, submitJob } from '../jobs/service';
import { sharedJobReads } from '../jobs/shared-reads';
import { jobListItem, logLine } from '../jobs/view';
import { assertCloneAllowed } from '../governance/clone-access';
import { currentCaller } from '../middleware/auth';
import { HttpError, notFound } from '../middleware/http-error';
import { serialiseOnce } from '../middleware/route';
import { buildCloneJob } from './build-input';
import { cloneProgress } from './job-type';
import { JobInputError } from './errors';
import { FANOUT_JOB_TYPE } from '../../workflows/fanout/definitions';
import { submitFanout } from '../fanout/service';

/** Jobs the clone API serves: clones and fan-out clones (target_workspaces, multi-clone). */
export const CLONE_JOB_TYPES = ['clone', FANOUT_JOB_TYPE] as const;

export const requireCloneJob = (deps: AppDeps, jobId: string) => requireJob(deps, jobId, CLONE_JOB_TYPES);

/**
 * Accepts a clone request: builds the job (template, config, request merged; secrets left out) and queues it.
 * A request with target_workspaces is a fan-out job (one child clone job per target, api/fanout).
 */
export async function submitClone(deps: AppDeps, request: CloneRequestInput) {
  await assertCloneAllowed(deps, currentCaller(), request); // access policies and where_clauses SQL: 403
  if (request.target_workspaces) return submitFanout(deps, request);
  const def = jobType(deps, 'clone');
  const now = new Date();
  const jobId = newCloneJobId(now);
  const built = await buildCloneJob(deps, request, jobId, now).catch(refuseJobInput);
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

/** A request the job build refused, as the HTTP error naming its field. */
export function refuseJobInput(err: unknown): never {
  if (!(err instanceof JobInputError)) throw err;
  const own = 'status' in err && typeof err.status === 'number' ? err.status : undefined;
  const status = own ?? (err.field.startsWith('workspace.') ? 422 : 400);
  const code = status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR';
  throw new HttpError(status, code, err.message, [{ path: `body.${err.field}`, message: err.message }]);
}

/**
 * The clone job record (GET /api/clone/{job_id}): the kernel's view of the row, the summary fields, logs and
 * server-mode aliases. Served from the store only (a busy worker or workflow is never asked), and shared by the
 * polls of the same job that arrive while its read is in flight (api/jobs/shared-reads.ts), serialised once for them.
 */
export function getCloneJob(deps: AppDeps, jobId: string) {
  return sharedJobReads(deps).read(`clone-record\u0000${jobId}`, async () =>
    serialiseOnce(await readCloneJob(deps, jobId)),
  );
}

async function readCloneJob(deps: AppDeps, jobId: string) {
  // The row, the log and the progress counts in one statement: one round trip to the store per poll of a job.
  const found = await readCloneRecord(deps.store.db, jobId);
  if (!found || !(CLONE_JOB_TYPES as readonly string[]).includes(found.row.jobType))
    throw notFound(`No ${CLONE_JOB_TYPES[0]} job ${jobId}`);
  const { row, logs, counts } = found;
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

/**
 * Clone jobs, newest first (GET /api/clone/jobs): the page's rows and their progress counts in one statement,
 * shared by the identical list requests that arrive while it is in flight and serialised once for them.
 */
export function listCloneJobs(deps: AppDeps, filter: { status?: JobStatus; limit: number; offset: number }) {
  const key = `clone-list\u0000${filter.status ?? ''}\u0000${filter.limit}\u0000${filter.offset}`;
  return sharedJobReads(deps).read(key, async () => {
    const def = jobType(deps, 'clone');
    const page = await readCloneJobsPage(deps.store.db, { ...filter, jobType: def.type });
    return serialiseOnce(page.map(({ row, counts }) => jobListItem(row, cloneProgress(row, counts), def)));
  });
}
