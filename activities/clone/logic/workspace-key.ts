import type { WorkspaceRef } from '../../../workflows/clone/definitions';

/** A stable key for a workspace reference (never includes secrets: refs carry none). */
export function workspaceKey(ref: WorkspaceRef): string {
  return ref.kind === 'local'
    ? `local:${ref.root}`
    : `databricks:${ref.host}|${ref.warehouseId}|${ref.target ?? ''}|${ref.credentialRef ?? ''}`;
}
