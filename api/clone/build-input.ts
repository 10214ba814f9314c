import path from 'node:path';
import type { JobSettings } from '../../activities/jobs/settings';
import { applyTemplateEffects, piiTaggedSchemas } from '../../activities/clone/logic/template-effects';
import { resolveCloneOptions } from '../../activities/clone/logic/template-merge';
import { configFileFields } from '../../config/clone-file-fields';
import { defaultTemplateSource, loadTemplate } from '../../config/templates';
import type { Config } from '../../config/load';
import { NotFoundError } from '../../platform/errors';
import type { CloneRequestInput, TargetWorkspace } from '../../schemas/clone';
import type { Store } from '../../store/db';
import { configTargetCipher } from '../../store/targets/cipher';
import { getTarget, saveTarget } from '../../store/targets/repo';
import type { CloneJobInput, CloneTarget, WorkspaceRef } from '../../workflows/clone/definitions';
import { DEFAULT_HISTORY_LIMITS } from '../../workflows/clone/signals';
import type { WorkspaceResolver } from '../deps';
import { JobInputError } from './errors';
import { checkLocalNames, checkSourceCatalog } from './pre-queue-checks';

const SECRET_KEYS = ['token', 'client_secret', 'client_id'] as const;

export interface BuiltJob {
  input: CloneJobInput;
  /** The request as stored in the jobs row: secrets removed, plus `job_settings` for the job-end recorder. */
  storedRequest: Record<string, unknown>;
  settings: JobSettings;
}

/**
 * Turns a validated clone request into the clone workflow's input: template, config file and request merged
 * (defaults applied), checked against the workspaces (pre-queue-checks.ts), the source workspace from config,
 * one target per destination. Secrets never enter the input (it is written to Temporal history): inline
 * target credentials are saved as a target connection named after the job and referenced by that name.
 */
export async function buildCloneJob(
  deps: { config: Config; store: Store; workspaces?: Pick<WorkspaceResolver, 'default'> },
  request: CloneRequestInput,
  jobId: string,
  now: Date,
): Promise<BuiltJob> {
  const { config } = deps;
  const template = request.template ? loadApiTemplate(request.template, config) : null;
  const resolved = resolveCloneOptions({
    request,
    template,
    configFile: configFileFields(config.config_path, config.clone),
  });
  // Refused here, before a row, a saved target or a queue entry exists: names the adapter cannot hold, then
  // a source catalog the source workspace does not have.
  checkLocalNames(resolved.options, config.workspace.kind);
  const workspaces = deps.workspaces;
  if (workspaces) await checkSourceCatalog(() => workspaces.default(), resolved.options.source_catalog);
  const { options, settings } = await applyTemplateEffects({
    options: resolved.options,
    template: resolved.template,
    requestCloneType: request.clone_type,
    piiSchemas: () => sourcePiiSchemas(deps, resolved.options.source_catalog),
  });
  if (!options.warehouse_id && config.clone.warehouse_id) options.warehouse_id = config.clone.warehouse_id;

  const source = sourceWorkspace(config, options.warehouse_id);
  const wanted = options.target_workspaces ?? (options.target_workspace ? [options.target_workspace] : []);
  const targets: CloneTarget[] = wanted.length
    ? await Promise.all(
        wanted.map((t, i) => {
          const at = options.target_workspaces ? `target_workspaces.${i}` : 'target_workspace';
          return resolveTarget(deps.store, config, t, i, at, jobId, options.destination_catalog);
        }),
      )
    : [
        {
          label: source.kind === 'local' ? source.root : source.host,
          workspace: source,
          destinationCatalog: options.destination_catalog,
        },
      ];

  if (options.target_workspace) options.target_workspace = withoutSecrets(options.target_workspace);
  if (options.target_workspaces) options.target_workspaces = options.target_workspaces.map(withoutSecrets);
  return {
    input: {
      jobId,
      options,
      source,
      targets,
      createdAt: now.toISOString(),
      maxRetries: config.clone.max_retries,
      throttleTimezone: config.clone.throttle_timezone,
      // The job keeps these for its whole life (the replay rule in workflows/clone/signals.ts).
      limits: { ...DEFAULT_HISTORY_LIMITS },
    },
    storedRequest: { ...stripSecrets(request), job_settings: settings },
    settings,
  };
}

/** The configured (source) workspace's PII-tagged schemas; an unknown catalog is the caller's mistake. */
async function sourcePiiSchemas(
  deps: { workspaces?: Pick<WorkspaceResolver, 'default'> },
  catalog: string,
): Promise<string[]> {
  if (!deps.workspaces) throw new Error('exclude_pii_tagged_schemas needs the source workspace to list schemas');
  try {
    return await piiTaggedSchemas(await deps.workspaces.default(), catalog);
  } catch (err) {
    if (err instanceof NotFoundError) throw new JobInputError('source_catalog', (err as Error).message);
    throw err;
  }
}

/** API requests select templates by name only: a server must not read files named by a client. */
function loadApiTemplate(name: string, config: Config) {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name))
    throw new JobInputError('template', 'give a template name (letters, digits, - and _)');
  const custom = config.config_path ? path.join(path.dirname(config.config_path), 'templates') : undefined;
  try {
    return loadTemplate(name, defaultTemplateSource(custom));
  } catch (err) {
    throw new JobInputError('template', (err as Error).message.replace(/^template: /, ''));
  }
}

function sourceWorkspace(config: Config, warehouseId: string | undefined): WorkspaceRef {
  const ws = config.workspace;
  if (ws.kind === 'local')
    return { kind: 'local', root: ws.root, ...(warehouseId && warehouseId !== 'default' ? { warehouseId } : {}) };
  const warehouse = warehouseId ?? ws.warehouse_id;
  if (!ws.host) throw new JobInputError('workspace.host', 'the server has no Databricks host configured');
  if (!warehouse) throw new JobInputError('warehouse_id', 'required: no warehouse is configured on the server');
  return { kind: 'databricks', host: ws.host, warehouseId: warehouse };
}

async function resolveTarget(
  store: Store,
  config: Config,
  t: TargetWorkspace,
  i: number,
  at: string,
  jobId: string,
  destination: string,
): Promise<CloneTarget> {
  const destinationCatalog = t.destination_catalog ?? destination;
  const kind = t.kind ?? (t.root ? 'local' : t.host ? 'databricks' : undefined);
  if (kind === 'local' && t.root)
    return { label: t.name ?? t.root, workspace: { kind: 'local', root: path.resolve(t.root) }, destinationCatalog };
  if (t.name && !t.host) {
    const saved = await getTarget(store.db, t.name);
    if (!saved) throw new JobInputError(`${at}.name`, `no saved target named "${t.name}"`);
    return {
      label: t.name,
      workspace: { kind: 'databricks', host: saved.host, warehouseId: saved.warehouseId, target: t.name },
      destinationCatalog,
    };
  }
  const host = t.host!;
  const warehouseId = t.warehouse_id!;
  const hasSecrets = SECRET_KEYS.some((k) => t[k]);
  let target = t.name;
  if (hasSecrets) {
    target = `${jobId}-target-${i}`;
    const credentials = Object.fromEntries(SECRET_KEYS.filter((k) => t[k]).map((k) => [k, t[k]!]));
    if (t.tenant_id) credentials.tenant_id = t.tenant_id;
    await saveTarget(store.db, configTargetCipher(config), {
      name: target,
      host,
      authMethod: t.auth_method ?? 'token',
      credentials,
      warehouseId,
      extra: { job_id: jobId },
    });
  }
  return {
    label: t.name ?? host,
    workspace: { kind: 'databricks', host, warehouseId, ...(target ? { target } : {}) },
    destinationCatalog,
  };
}

function withoutSecrets(t: TargetWorkspace): TargetWorkspace {
  const copy = { ...t };
  for (const k of SECRET_KEYS) delete copy[k];
  return copy;
}

function stripSecrets(request: CloneRequestInput): Record<string, unknown> {
  const out: Record<string, unknown> = { ...request };
  if (request.target_workspace) out.target_workspace = withoutSecrets(request.target_workspace);
  if (request.target_workspaces) out.target_workspaces = request.target_workspaces.map(withoutSecrets);
  return out;
}
