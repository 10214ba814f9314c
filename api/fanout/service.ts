import { inArray } from 'drizzle-orm';
import type { CloneRequestInput } from '../../schemas/clone';
import type { MultiCloneRequest } from '../../schemas/fanout';
import { createJob } from '../../store/jobs/jobs';
import { jobs } from '../../store/schema';
import { getTarget } from '../../store/targets/repo';
import type { CloneTarget } from '../../workflows/clone/definitions';
import {
  FANOUT_JOB_TYPE,
  type DataSyncMode,
  type FanoutChild,
  type FanoutJobInput,
} from '../../workflows/fanout/definitions';
import { buildCloneJob, type BuiltJob } from '../clone/build-input';
import { refuseJobInput } from '../clone/service';
import type { AppDeps } from '../deps';
import { assertAllowed } from '../governance/access';
import { currentCaller } from '../middleware/auth';
import { newJobId } from '../jobs/job-id';
import { jobType, submitJob } from '../jobs/service';

/** The data sync mode of each target: a saved target's, else none (the request's load_type). */
async function syncModes(deps: AppDeps, request: CloneRequestInput, n: number): Promise<(DataSyncMode | null)[]> {
  const wanted = request.target_workspaces ?? [];
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const t = wanted[i];
      if (!t?.name || t.host || t.root) return null;
      const saved = await getTarget(deps.store.db, t.name);
      return (saved?.syncMode as DataSyncMode | undefined) ?? null;
    }),
  );
}

/**
 * Queues a fan-out clone: the clone built once for every target (as a clone job would be), one child clone job
 * row per target (status queued, so each can be read at GET /api/clone/{job_id} at once), then the fan-out job
 * in its queue. A refused enqueue removes the child rows again.
 */
export async function submitFanout(
  deps: AppDeps,
  request: CloneRequestInput,
  opts: { targets?: (built: BuiltJob) => CloneTarget[] } = {},
) {
  const def = jobType(deps, FANOUT_JOB_TYPE);
  const now = new Date();
  const jobId = newJobId(FANOUT_JOB_TYPE, now);
  const built = await buildCloneJob(deps, request, jobId, now).catch(refuseJobInput);
  if (opts.targets) built.input.targets = opts.targets(built);
  const { options, targets } = built.input;
  const modes = await syncModes(deps, request, targets.length);
  const children: FanoutChild[] = targets.map((_, i) => ({
    jobId: `${jobId}-t${i + 1}`,
    target: i,
    syncMode: modes[i],
  }));
  const input: FanoutJobInput = {
    jobId,
    clone: built.input,
    children,
    maxParallel: deps.config.clone.fanout_max_parallel,
  };
  const childIds = children.map((c) => c.jobId);
  // Children notify nothing: the fan-out's own end is the one notification.
  const childSettings = { ...built.settings, notify_on_success: false, notify_on_failure: false };
  for (const c of children) {
    const t = targets[c.target];
    await createJob(deps.store.db, {
      jobId: c.jobId,
      jobType: 'clone',
      status: 'queued',
      createdAt: now,
      sourceCatalog: options.source_catalog,
      destinationCatalog: t.destinationCatalog,
      cloneType: options.clone_type,
      request: {
        ...built.storedRequest,
        job_settings: childSettings,
        fanout_job_id: jobId,
        target: t.label,
        data_sync_mode: c.syncMode,
      },
    });
  }
  try {
    const accepted = await submitJob(deps, def, {
      jobId,
      input,
      createdAt: now,
      row: {
        sourceCatalog: options.source_catalog,
        destinationCatalog: options.destination_catalog,
        cloneType: options.clone_type,
        request: { ...built.storedRequest, child_job_ids: childIds },
      },
      searchAttributes: { sourceCatalog: options.source_catalog, destinationCatalog: options.destination_catalog },
      warnings: built.settings.warnings,
    });
    return {
      ...accepted,
      children: children.map((c) => ({
        target: targets[c.target].label,
        destination: targets[c.target].destinationCatalog,
        job_id: c.jobId,
        status: 'queued' as const,
      })),
    };
  } catch (err) {
    await deps.store.db.delete(jobs).where(inArray(jobs.jobId, childIds));
    throw err;
  }
}

/** POST /api/multi-clone: one fan-out over destination catalogs of the configured workspace. */
export async function submitMultiClone(deps: AppDeps, body: MultiCloneRequest) {
  for (const d of body.destinations)
    // access policies, per destination: 403 naming the rule
    await assertAllowed(deps, currentCaller(), {
      operation: 'clone',
      source: body.source_catalog,
      destination: d.catalog,
    });
  const request = {
    source_catalog: body.source_catalog,
    destination_catalog: body.destinations[0].catalog,
    ...(body.clone_type ? { clone_type: body.clone_type } : {}),
  } as CloneRequestInput;
  const accepted = await submitFanout(deps, request, {
    targets: (built) => {
      const source = built.input.targets[0];
      return body.destinations.map((d) => ({
        label: d.catalog,
        workspace: source.workspace,
        destinationCatalog: d.catalog,
      }));
    },
  });
  return accepted.children.map((c) => ({
    destination: c.destination,
    job_id: c.job_id,
    status: c.status,
    fanout_job_id: accepted.job_id,
  }));
}
