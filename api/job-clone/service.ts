import { diffSettings } from '../../activities/job-clone/logic/diff';
import {
  cloneSettings,
  paused,
  remapIds,
  writableSettings,
  type Json,
} from '../../activities/job-clone/logic/settings';
import { resolveAuth } from '../../platform/databricks/auth/credentials';
import { RestClient } from '../../platform/databricks/rest/http';
import { WorkspaceApi } from '../../platform/databricks/rest/workspace-api';
import type { DatabricksWorkspace } from '../../platform/databricks/workspace';
import { savedTargetSpec } from '../../platform/saved-target';
import { configTargetCipher } from '../../store/targets/cipher';
import { getTargetWithCredentials } from '../../store/targets/repo';
import type { AppDeps } from '../deps';
import { HttpError, notFound } from '../middleware/http-error';
import { localRegistry } from './local-registry';
import { databricksRegistry, type JobRegistry } from './registry';

/** The default workspace's jobs: its Jobs API on Databricks, Lakeward's pipelines and schedules locally. */
export async function registryFor(deps: AppDeps): Promise<JobRegistry> {
  const ws = await deps.workspaces.default();
  if (ws.kind === 'databricks') return databricksRegistry((ws as unknown as DatabricksWorkspace).rest.workspace);
  return localRegistry(deps);
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function cloneJob(
  deps: AppDeps,
  body: { job_id: string; new_name?: string; overrides: Json },
  into?: JobRegistry,
  remap?: { clusters?: Record<string, string>; warehouses?: Record<string, string> },
) {
  const from = await registryFor(deps);
  const src = await from.get(body.job_id);
  let settings = cloneSettings(src.settings, { newName: body.new_name, overrides: body.overrides });
  const warnings: string[] = [];
  if (into) {
    const r = remapIds(settings, remap ?? {});
    settings = r.settings;
    if (r.unmapped.clusters.length) warnings.push(`clusters not remapped: ${r.unmapped.clusters.join(', ')}`);
    if (r.unmapped.warehouses.length) warnings.push(`warehouses not remapped: ${r.unmapped.warehouses.join(', ')}`);
  }
  const newId = await (into ?? from).create(settings);
  return { source_job_id: src.job_id, new_job_id: newId, name: String(settings.name), settings, warnings };
}

/** A Jobs API client on another workspace for this call only (the token is never stored or logged). */
export async function destinationRegistry(host: string, token: string): Promise<JobRegistry> {
  let resolved;
  try {
    resolved = await resolveAuth(host, { type: 'pat', token });
  } catch (err) {
    throw new HttpError(400, 'VALIDATION_ERROR', message(err), [{ path: 'body.dest_host', message: 'invalid' }]);
  }
  return databricksRegistry(new WorkspaceApi(new RestClient(resolved.host, resolved.tokens, { maxAttempts: 3 })));
}

/** The Jobs API of the Databricks workspace a saved target names (its sealed credentials, opened here only). */
export async function targetRegistry(deps: AppDeps, name: string): Promise<JobRegistry> {
  const t = await getTargetWithCredentials(deps.store.db, configTargetCipher(deps.config), name);
  if (!t) throw notFound(`No saved target named "${name}"`);
  const ws = await deps.workspaces.open(savedTargetSpec(t));
  if (ws.kind !== 'databricks')
    throw new HttpError(422, 'VALIDATION_ERROR', `saved target ${name} is not a Databricks workspace`, [
      { path: 'body.dest_target', message: 'not a Databricks workspace' },
    ]);
  return databricksRegistry((ws as unknown as DatabricksWorkspace).rest.workspace);
}

export async function diffJobs(deps: AppDeps, a: string, b: string) {
  const r = await registryFor(deps);
  const [ja, jb] = [await r.get(a), await r.get(b)];
  const diffs = diffSettings(ja.settings, jb.settings);
  return { job_id_a: a, job_id_b: b, identical: diffs.length === 0, diffs };
}

/** Each job's writable settings; a job that cannot be read is reported, the others are still backed up. */
export async function backupJobs(deps: AppDeps, ids: string[]) {
  const r = await registryFor(deps);
  const definitions: { job_id: string; settings: Json }[] = [];
  const results: { job_id: string; status: 'ok' | 'failed'; error?: string }[] = [];
  for (const id of ids) {
    try {
      const job = await r.get(id);
      definitions.push({ job_id: job.job_id, settings: writableSettings(job.settings) });
      results.push({ job_id: id, status: 'ok' });
    } catch (err) {
      results.push({ job_id: id, status: 'failed', error: message(err) });
    }
  }
  return { definitions, results };
}

/** Creates a job per definition (schedules paused); per item ok with the new id, or failed with the reason. */
export async function restoreJobs(deps: AppDeps, definitions: { job_id?: string; settings: Json }[]) {
  const r = await registryFor(deps);
  const results = [];
  for (const d of definitions) {
    try {
      const id = await r.create(paused(writableSettings(d.settings)));
      results.push({ source_job_id: d.job_id ?? null, new_job_id: id, status: 'ok' as const });
    } catch (err) {
      results.push({
        source_job_id: d.job_id ?? null,
        new_job_id: null,
        status: 'failed' as const,
        error: message(err),
      });
    }
  }
  return { results };
}
