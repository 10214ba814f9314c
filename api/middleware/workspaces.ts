import type { Request } from 'express';
import type { Config } from '../../config/load';
import {
  createWorkspaceResolver as createPlatformResolver,
  type WorkspaceOpener,
  type WorkspaceSpec,
} from '../../platform/workspace-resolver';
import { normalizeHost } from '../../platform/databricks/auth/credentials';
import { readWorkspaceHeaders, WorkspaceHeaderError } from '../../platform/databricks/auth/headers';
import { sessionWorkspaceSpec } from '../auth/session';
import type { RequestWorkspaceResolver } from '../deps';
import { HttpError } from './http-error';

export function workspaceSpecFromConfig(config: Config): WorkspaceSpec {
  const ws = config.workspace;
  if (ws.kind === 'local') return { kind: 'local', root: ws.root };
  if (!ws.host) throw new HttpError(500, 'CONFIG_ERROR', 'workspace.kind is databricks but workspace.host is not set');
  return {
    kind: 'databricks',
    host: normalizeHost(ws.host),
    token: ws.token,
    warehouseId: ws.warehouse_id ?? config.clone.warehouse_id,
    authMethod: ws.auth_method,
    clientId: ws.client_id,
    clientSecret: ws.client_secret,
    tenantId: ws.tenant_id,
    profile: ws.profile,
  };
}

/** Workspace credentials sent with a request (read by the platform's header reader), or null. Never logged. */
export function requestCredentials(req: Request): { host: string; token: string } | null {
  try {
    const creds = readWorkspaceHeaders(req.headers);
    return creds && { host: creds.host, token: creds.token.reveal() };
  } catch (err) {
    if (!(err instanceof WorkspaceHeaderError)) throw err;
    throw new HttpError(400, 'VALIDATION_ERROR', err.message, [
      { path: `headers.${err.header}`, message: err.problem },
    ]);
  }
}

/**
 * The API's resolver: the platform's shared workspaces (the configured default, others by spec) plus, per
 * request, the workspace named by X-Databricks-Host/Token, else the signed-in session's, cached like any other spec.
 */
export function createWorkspaceResolver(config: Config, open: WorkspaceOpener): RequestWorkspaceResolver {
  const shared = createPlatformResolver(() => workspaceSpecFromConfig(config), open);
  return {
    ...shared,
    async resolve(req) {
      const creds = requestCredentials(req);
      if (!creds) {
        const signedIn = sessionWorkspaceSpec(req, config);
        return signedIn ? shared.open(signedIn) : shared.default();
      }
      const warehouseId = config.workspace.warehouse_id ?? config.clone.warehouse_id;
      return shared.open({
        kind: 'databricks',
        host: creds.host,
        token: creds.token,
        authMethod: 'token',
        warehouseId,
      });
    },
  };
}
