import type { DatabricksConfig } from './databricks/config';
import { LocalWorkspace, type LocalWorkspaceOptions } from './local/workspace';
import { InvalidInputError } from './errors';
import type { Workspace } from './port';

export type { Workspace } from './port';
export { LocalWorkspace } from './local/workspace';

/** Which workspace to open: the embedded local lakehouse at a folder, or a Databricks workspace. */
export type WorkspaceConfig = ({ kind: 'local' } & LocalWorkspaceOptions) | ({ kind: 'databricks' } & DatabricksConfig);

/**
 * Opens a workspace behind the platform port. The Databricks adapter is loaded only when asked for, so the
 * local path never pays for its SQL driver.
 */
export async function openWorkspace(config: WorkspaceConfig): Promise<Workspace> {
  if (config?.kind === 'local') return new LocalWorkspace(config);
  if (config?.kind === 'databricks') {
    const { createDatabricksWorkspace } = await import('./databricks');
    return createDatabricksWorkspace(config);
  }
  throw new InvalidInputError(
    `workspace kind must be 'local' or 'databricks', got ${JSON.stringify((config as { kind?: unknown })?.kind)}`,
  );
}
