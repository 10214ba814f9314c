import { createHash } from 'node:crypto';
import type { Workspace } from './port';

/** How to reach a workspace: the local lakehouse folder or a Databricks host with its credentials. */
export type WorkspaceSpec =
  | { kind: 'local'; root: string }
  | {
      kind: 'databricks';
      host: string;
      token?: string | null;
      warehouseId?: string | null;
      authMethod?: 'token' | 'service_principal' | 'profile';
      clientId?: string | null;
      clientSecret?: string | null;
      tenantId?: string | null;
      profile?: string | null;
    };

/** Opens a platform workspace (the platform adapters' `openWorkspace`). */
export type WorkspaceOpener = (spec: WorkspaceSpec) => Promise<Workspace>;

/** The process's open workspaces: the configured default and any other by spec, shared and closed together. */
export interface WorkspaceResolver {
  /** The configured default workspace. */
  default(): Promise<Workspace>;
  /** Any workspace by spec (a saved target, say), kept open and shared like the others. */
  open(spec: WorkspaceSpec): Promise<Workspace>;
  close(): Promise<void>;
}

/** Workspaces opened by spec stay open for reuse; beyond this many the least recently used one is closed. */
const MAX_CACHED = 16;

/**
 * A resolver over `open`: the default workspace is opened once (a failed open is retried by the next caller),
 * others are cached by spec. `defaultSpec` is read when the default is first needed, so a configuration
 * problem surfaces where the workspace is used.
 */
export function createWorkspaceResolver(defaultSpec: () => WorkspaceSpec, open: WorkspaceOpener): WorkspaceResolver {
  let fallback: Promise<Workspace> | undefined;
  const cached = new Map<string, Promise<Workspace>>();
  const closeQuietly = (p: Promise<Workspace>) => p.then((ws) => ws.close()).catch(() => undefined);

  return {
    default() {
      fallback ??= Promise.resolve()
        .then(() => open(defaultSpec()))
        .catch((err: unknown) => {
          fallback = undefined;
          throw err;
        });
      return fallback;
    },
    open(spec) {
      const key = createHash('sha256').update(JSON.stringify(spec)).digest('hex');
      let ws = cached.get(key);
      if (ws) {
        cached.delete(key); // re-insert below: Map order is the recency order
      } else {
        ws = open(spec);
        void ws.catch(() => cached.delete(key));
      }
      cached.set(key, ws);
      if (cached.size > MAX_CACHED) {
        const [oldestKey, oldest] = cached.entries().next().value as [string, Promise<Workspace>];
        cached.delete(oldestKey);
        void closeQuietly(oldest);
      }
      return ws;
    },
    async close() {
      const all = [...cached.values(), ...(fallback ? [fallback] : [])];
      cached.clear();
      fallback = undefined;
      await Promise.all(all.map(closeQuietly));
    },
  };
}
