import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { Config } from '../../config/load';
import type { Workspace } from '../../platform/port';
import type { WorkspaceOpener, WorkspaceResolver, WorkspaceSpec } from '../deps';
import { HttpError } from './http-error';

/** Per-request workspaces stay open for reuse; beyond this many the least recently used one is closed. */
const MAX_CACHED = 16;

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

export function createWorkspaceResolver(config: Config, open: WorkspaceOpener): WorkspaceResolver {
  let fallback: Promise<Workspace> | undefined;
  const perRequest = new Map<string, Promise<Workspace>>();
  const closeQuietly = (p: Promise<Workspace>) => p.then((ws) => ws.close()).catch(() => undefined);

  const openDefault = () => {
    fallback ??= open(workspaceSpecFromConfig(config)).catch((err: unknown) => {
      fallback = undefined; // a failed open is retried by the next request
      throw err;
    });
    return fallback;
  };

  const openCached = (spec: WorkspaceSpec): Promise<Workspace> => {
    const key = createHash('sha256').update(JSON.stringify(spec)).digest('hex');
    let ws = perRequest.get(key);
    if (ws) {
      perRequest.delete(key); // re-insert below: Map order is the recency order
    } else {
      ws = open(spec);
      void ws.catch(() => perRequest.delete(key));
    }
    perRequest.set(key, ws);
    if (perRequest.size > MAX_CACHED) {
      const [oldestKey, oldest] = perRequest.entries().next().value as [string, Promise<Workspace>];
      perRequest.delete(oldestKey);
      void closeQuietly(oldest);
    }
    return ws;
  };

  return {
    default: openDefault,
    open: openCached,
    async resolve(req) {
      const creds = requestCredentials(req);
      if (!creds) return openDefault();
      const warehouseId = config.workspace.warehouse_id ?? config.clone.warehouse_id;
      return openCached({ kind: 'databricks', host: creds.host, token: creds.token, authMethod: 'token', warehouseId });
    },
    async close() {
      const all = [...perRequest.values(), ...(fallback ? [fallback] : [])];
      perRequest.clear();
      fallback = undefined;
      await Promise.all(all.map(closeQuietly));
    },
  };
}
