import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { Client, ConnectionLike } from '@temporalio/client';
import type { Request, Router } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config/load';
import type { Workspace } from '../platform/port';
import type { WorkspaceResolver } from '../platform/workspace-resolver';
import type { Store } from '../store/db';

export type { WorkspaceOpener, WorkspaceResolver, WorkspaceSpec } from '../platform/workspace-resolver';
import type { JobTypeDefinition } from './jobs/registry';

/** One Temporal client and connection per process, made at boot and shared by every request. */
export interface TemporalHandle {
  client: Client;
  /** The worker's NativeConnection in the embedded stack, or a client Connection. */
  connection: ConnectionLike;
  /** host:port, for health output. */
  address: string;
}

/** The API's workspaces: the platform resolver plus the workspace a request names in its headers. */
export interface RequestWorkspaceResolver extends WorkspaceResolver {
  /** The workspace of this request: X-Databricks-Host/Token (or X-Platform-*) if sent, else the configured one. */
  resolve(req: Request): Promise<Workspace>;
}

/** Everything a router may use. Tests build it with a test store, a test Temporal client and a temp workspace. */
export interface AppDeps {
  config: Config;
  store: Store;
  temporal: TemporalHandle | null;
  logger: Logger;
  workspaces: RequestWorkspaceResolver;
  /** When the process started (health reports uptime). */
  startedAt?: Date;
  /** Job types served (api/jobs/job-types.ts when absent); tests register their own. */
  jobTypes?: JobTypeDefinition[];
  /** The clock of time-window reads such as a budget's current month (the system clock when absent). */
  now?: () => Date;
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
