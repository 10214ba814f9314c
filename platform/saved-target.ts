import { DatabricksWorkspace } from './databricks/workspace';
import type { Workspace } from './port';
import type { WorkspaceSpec } from './workspace-resolver';

/** A saved target connection with its credentials opened (the store's row, in plain fields). */
export interface SavedTargetConnection {
  host: string;
  authMethod: string;
  warehouseId: string;
  credentials: Record<string, string>;
}

/** How to open a saved target: its host, auth method and credentials as the Databricks adapter takes them. */
export function savedTargetSpec(t: SavedTargetConnection, warehouseId?: string | null): WorkspaceSpec {
  const c = t.credentials;
  return {
    kind: 'databricks',
    host: t.host,
    warehouseId: warehouseId || t.warehouseId,
    authMethod:
      t.authMethod === 'service_principal'
        ? 'service_principal'
        : t.authMethod === 'cli_profile' || t.authMethod === 'profile'
          ? 'profile'
          : 'token',
    token: c.token ?? null,
    clientId: c.client_id ?? null,
    clientSecret: c.client_secret ?? null,
    tenantId: c.tenant_id ?? null,
    profile: c.profile ?? null,
  };
}

/** Who a Databricks workspace's credentials act as: SCIM `GET /api/2.0/preview/scim/v2/Me`. */
export async function workspaceIdentity(ws: Workspace): Promise<{ userName: string; displayName: string | null }> {
  if (ws instanceof DatabricksWorkspace) {
    const me = await ws.rest.workspace.currentUser();
    return { userName: me.userName, displayName: me.displayName ?? null };
  }
  throw new Error(`cannot tell the identity of a ${ws.kind} workspace`);
}
