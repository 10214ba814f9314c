import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { Client, ConnectionLike } from '@temporalio/client';
import type { Request, Router } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config/load';
import type { Workspace } from '../platform/port';
import type { Store } from '../store/db';

/** One Temporal client and connection per process, made at boot and shared by every request. */
export interface TemporalHandle {
  client: Client;
  /** The worker's NativeConnection in the embedded stack, or a client Connection. */
  connection: ConnectionLike;
  /** host:port, for health output. */
  address: string;
}

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

export interface WorkspaceResolver {
  /** The workspace of this request: X-Databricks-Host/Token (or X-Platform-*) if sent, else the configured one. */
  resolve(req: Request): Promise<Workspace>;
  /** The configured default workspace. */
  default(): Promise<Workspace>;
  /** Any workspace by spec (a saved target, say), kept open and shared like the others. */
  open(spec: WorkspaceSpec): Promise<Workspace>;
  close(): Promise<void>;
}

/** Everything a router may use. Tests build it with a test store, a test Temporal client and a temp workspace. */
export interface AppDeps {
  config: Config;
  store: Store;
  temporal: TemporalHandle | null;
  logger: Logger;
  workspaces: WorkspaceResolver;
  /** When the process started (health reports uptime). */
  startedAt?: Date;
}

/**
 * A domain's routes. `api/app.ts` keeps the list; a new domain adds one entry. Paths inside the router are
 * relative to each mount (default `/api`); `openapi` registers the same paths, with their zod schemas,
 * in the generated document.
 */
export interface RouteModule {
  name: string;
  mounts?: string[];
  router(deps: AppDeps): Router;
  openapi?(registry: OpenAPIRegistry): void;
}
