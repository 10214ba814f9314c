import type { Request } from 'express';
import type { Config } from '../../config/load';
import {
  createWorkspaceResolver as createPlatformResolver,
  type WorkspaceOpener,
  type WorkspaceSpec,
} from '../../platform/workspace-resolver';
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

/** Workspace credentials sent with a request, or null when none were sent. Never logged. */
export function requestCredentials(req: Request): { host: string; token: string } | null {
  const host = req.get('x-databricks-host') ?? req.get('x-platform-host');
  const token = req.get('x-databricks-token') ?? req.get('x-platform-token');
  if (!host && !token) return null;
  if (!host || !token) {
    const missing = host ? 'X-Databricks-Token' : 'X-Databricks-Host';
    throw new HttpError(400, 'VALIDATION_ERROR', `Workspace credentials need both headers: ${missing} is missing`, [
      { path: `headers.${missing.toLowerCase()}`, message: 'required when the other workspace header is sent' },
    ]);
  }
  return { host: normalizeHost(host), token };
}

function normalizeHost(host: string): string {
  const withScheme = /^https?:\/\//i.test(host) ? host : `https://${host}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new HttpError(400, 'VALIDATION_ERROR', 'X-Databricks-Host is not a valid URL', [
      { path: 'headers.x-databricks-host', message: 'expected https://<workspace-host>' },
    ]);
  }
  return `${url.protocol}//${url.host}`;
}

/**
 * The API's resolver: the platform's shared workspaces (the configured default, others by spec) plus, per
 * request, the workspace named by X-Databricks-Host/Token, cached like any other spec.
 */
export function createWorkspaceResolver(config: Config, open: WorkspaceOpener): RequestWorkspaceResolver {
  const shared = createPlatformResolver(() => workspaceSpecFromConfig(config), open);
  return {
    ...shared,
    async resolve(req) {
      const creds = requestCredentials(req);
      if (!creds) return shared.default();
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
