import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { SubmitScheduledClone } from '../../activities/schedules';
import type { Config } from '../../config/load';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Store } from '../../store/db';
import type { AppDeps } from '../deps';
import { submitClone } from '../clone/service';

/**
 * The clone submission scheduled runs use: the API's own POST /api/clone path (template, config, checks, job
 * row, queue limits), called from the worker's activity. The worker process wires it (workers/stack.ts);
 * activities never import the API.
 */
export function scheduledCloneSubmitter(deps: {
  config: Config;
  store: Store;
  client: Client;
  workspaces: WorkspaceResolver;
  logger: Logger;
  address?: string;
}): SubmitScheduledClone {
  const appDeps: AppDeps = {
    config: deps.config,
    store: deps.store,
    temporal: { client: deps.client, connection: deps.client.connection, address: deps.address ?? '' },
    logger: deps.logger,
    // A scheduled run has no request: it always uses the configured workspaces.
    workspaces: { ...deps.workspaces, resolve: () => deps.workspaces.default() },
  };
  return async (request) => submitClone(appDeps, request);
}
