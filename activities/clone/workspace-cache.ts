import type { Workspace } from '../../platform/port';
import type { WorkspaceRef } from '../../workflows/clone/definitions';

import { workspaceKey } from './logic/workspace-key';

export { workspaceKey };

/**
 * Opens each workspace once per worker process and reuses it for every activity; a failed open is not
 * cached, so the next attempt tries again.
 */
export function cachedWorkspaces(open: (ref: WorkspaceRef) => Promise<Workspace>) {
  const cache = new Map<string, Promise<Workspace>>();
  return {
    resolve(ref: WorkspaceRef): Promise<Workspace> {
      const key = workspaceKey(ref);
      let ws = cache.get(key);
      if (!ws) {
        ws = open(ref);
        cache.set(key, ws);
        ws.catch(() => cache.delete(key));
      }
      return ws;
    },
    async closeAll(): Promise<void> {
      const all = [...cache.values()];
      cache.clear();
      await Promise.all(all.map(async (p) => (await p.catch(() => null))?.close()));
    },
  };
}
