import { DEFAULT_CLONE_NOTEBOOK, databricksJobSettings } from '../../activities/schedules/logic/databricks-job';
import { DatabricksWorkspace } from '../../platform/databricks';
import type { CloneRequestInput } from '../../schemas/clone';
import type { CreateJobBody } from '../../schemas/schedules';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';

async function databricksOf(deps: AppDeps): Promise<DatabricksWorkspace> {
  const ws = await deps.workspaces.default();
  if (!(ws instanceof DatabricksWorkspace))
    throw new HttpError(422, 'VALIDATION_ERROR', 'target databricks-jobs needs a Databricks workspace', [
      { path: 'body.target', message: `the configured workspace is ${ws.kind}; use target temporal` },
    ]);
  return ws;
}

/** Creates the Databricks Job (jobs/create) or overwrites its settings (jobs/reset); returns its job id. */
export async function upsertDatabricksJob(
  deps: AppDeps,
  j: { name: string; body: CreateJobBody; request: CloneRequestInput; jobId: string | null },
): Promise<string> {
  const ws = await databricksOf(deps);
  const settings = databricksJobSettings({
    name: j.name,
    quartz: j.body.schedule ?? null,
    timezone: j.body.timezone,
    emails: j.body.notification_emails,
    maxRetries: j.body.max_retries,
    timeoutSeconds: j.body.timeout_seconds,
    tags: j.body.tags,
    notebookPath: j.body.notebook_path ?? DEFAULT_CLONE_NOTEBOOK,
    warehouseId: j.request.warehouse_id ?? deps.config.workspace.warehouse_id ?? null,
    request: j.request as unknown as Record<string, unknown>,
  });
  if (j.jobId) {
    await ws.rest.workspace.resetJob(Number(j.jobId), settings);
    return j.jobId;
  }
  const { job_id } = await ws.rest.workspace.createJob(settings);
  return String(job_id);
}

/** jobs/run-now; returns the run id. */
export async function runDatabricksJob(deps: AppDeps, jobId: string): Promise<string> {
  const ws = await databricksOf(deps);
  const { run_id } = await ws.rest.workspace.runJobNow(Number(jobId));
  return String(run_id);
}
