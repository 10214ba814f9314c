import type { DatabricksConfig } from './databricks/config';
import { LocalWorkspace, type LocalWorkspaceOptions } from './local/workspace';
import type { LocalThreadPool } from './local/threads/pool';
import { onLocalThreads } from './local/threads/workspace';
import { InvalidInputError } from './errors';
import type { Workspace } from './port';

export type { Workspace } from './port';
export { LocalWorkspace } from './local/workspace';

/**
 * Which workspace to open: the embedded local lakehouse at a folder (with `threads`, its metadata calls and
 * shallow clones run on those threads), or a Databricks workspace.
 */
export type WorkspaceConfig =
  ({ kind: 'local'; threads?: LocalThreadPool } & LocalWorkspaceOptions) | ({ kind: 'databricks' } & DatabricksConfig);

/**
 * Opens a workspace behind the platform port. The Databricks adapter is loaded only when asked for, so the
 * local path never pays for its SQL driver.
 */
export async function openWorkspace(config: WorkspaceConfig): Promise<Workspace> {
  if (config?.kind === 'local') {
    const { threads, ...opts } = config;
    const ws = new LocalWorkspace(opts);
    return threads ? onLocalThreads(ws, threads, opts) : ws;
  }
  if (config?.kind === 'databricks') {
    const { createDatabricksWorkspace } = await import('./databricks');
    return createDatabricksWorkspace(config);
  }
  throw new InvalidInputError(
    `workspace kind must be 'local' or 'databricks', got ${JSON.stringify((config as { kind?: unknown })?.kind)}`,
  );
}
