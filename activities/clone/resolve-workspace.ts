import { InvalidInputError, NotFoundError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import { savedTargetSpec } from '../../platform/saved-target';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Db } from '../../store/db';
import type { TargetCipher } from '../../store/targets/cipher';
import { getTargetWithCredentials } from '../../store/targets/repo';
import type { EnginePool } from '../../platform/local/warehouse-pool';
import { onWarehouse } from '../warehouses/gate';
import type { WorkspaceRef } from '../../workflows/clone/definitions';

/**
 * Turns a workflow's WorkspaceRef (no secrets) into an open workspace in the worker: local roots directly;
 * Databricks through the saved target named by `target` (credentials read from the store here, never from
 * history), or the worker's configured workspace when the host is that one. The resolver caches per spec.
 */
export function cloneWorkspaceResolver(
  workspaces: WorkspaceResolver,
  db: Db,
  cipher: TargetCipher,
  /** The engine pool of a named local warehouse (absent: every local job runs on the shared default engine). */
  warehousePool?: (warehouseId: string) => Promise<EnginePool>,
): (ref: WorkspaceRef) => Promise<Workspace> {
  return async (ref) => {
    if (ref.kind === 'local') {
      const ws = await workspaces.open({ kind: 'local', root: ref.root });
      if (!ref.warehouseId || !warehousePool) return ws;
      const id = ref.warehouseId;
      await warehousePool(id); // an unknown warehouse fails here, before any work
      return onWarehouse(ws, () => warehousePool(id));
    }
    const name = ref.target ?? ref.credentialRef;
    if (name) {
      const t = await getTargetWithCredentials(db, cipher, name);
      if (!t) throw new NotFoundError(`saved target ${name} not found`);
      const spec = savedTargetSpec(t, ref.warehouseId);
      return workspaces.open(spec);
    }
    const configured = await workspaces.default();
    if (configured.kind === 'databricks' && configured.id.replace(/\/+$/, '') === ref.host.replace(/\/+$/, ''))
      return configured;
    throw new InvalidInputError(
      `no credentials for Databricks workspace ${ref.host}: save it as a target and reference it by name`,
    );
  };
}
