import type { WorkspaceOpener, WorkspaceSpec } from '../platform/workspace-resolver';
import { openWorkspace, type WorkspaceConfig } from '../platform';
import { InvalidInputError } from '../platform/errors';
import { instrumentWorkspace } from '../platform/observability/instrument-workspace';
import type { LocalThreadPool } from '../platform/local/threads/pool';

/** Translates the service's workspace spec (config file, request headers, saved targets) to the platform's. */
export function toPlatformConfig(spec: WorkspaceSpec, threads?: LocalThreadPool): WorkspaceConfig {
  if (spec.kind === 'local') return { kind: 'local', root: spec.root, threads };
  const base = { kind: 'databricks' as const, host: spec.host, warehouseId: spec.warehouseId ?? undefined };
  switch (spec.authMethod ?? 'token') {
    case 'token':
      if (!spec.token) throw new InvalidInputError('workspace.token is required for token authentication');
      return { ...base, auth: { type: 'pat', token: spec.token } };
    case 'service_principal': {
      const { clientId, clientSecret, tenantId } = spec;
      if (!clientId || !clientSecret) {
        throw new InvalidInputError(
          'workspace.client_id and workspace.client_secret are required for a service principal',
        );
      }
      return tenantId
        ? { ...base, auth: { type: 'azure-service-principal', tenantId, clientId, clientSecret } }
        : { ...base, auth: { type: 'oauth-m2m', clientId, clientSecret } };
    }
    case 'profile':
      return { ...base, auth: { type: 'cli-profile', profile: spec.profile ?? undefined } };
  }
}

/**
 * Opens a workspace whose every statement is a span and counts in the warehouse statement metrics; a local one
 * runs its metadata calls on `threads` when given (a process with a worker).
 */
export function platformWorkspaceOpener(threads?: LocalThreadPool): WorkspaceOpener {
  return async (spec) => instrumentWorkspace(await openWorkspace(toPlatformConfig(spec, threads)));
}

export const openPlatformWorkspace: WorkspaceOpener = platformWorkspaceOpener();
