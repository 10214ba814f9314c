import type { TokenSource } from '../auth/token-source';
import { DriverSqlSession, poolKey, type DriverSessionOptions } from './driver-session';
import type { SqlRows, SqlSession } from './sql-session';

/**
 * Process-wide registry: workspaces for the same (host, warehouse, identity) share one driver client
 * and its sessions. Each workspace holds a lease; the client closes when the last lease is released,
 * and `closeAllDatabricksSessions()` closes everything on shutdown.
 */
const entries = new Map<string, { session: DriverSqlSession; leases: number }>();

export function leaseDriverSession(o: DriverSessionOptions & { tokens: TokenSource }): SqlSession {
  const key = poolKey(o.host, o.warehouseId, o.tokens);
  let entry = entries.get(key);
  if (!entry) {
    entry = { session: new DriverSqlSession(o), leases: 0 };
    entries.set(key, entry);
  }
  entry.leases++;
  const held = entry;
  let released = false;
  return {
    executeStatement: (sql: string): Promise<SqlRows> => held.session.executeStatement(sql),
    executeStreaming: (sql, opts) => held.session.executeStreaming(sql, opts),
    close: async () => {
      if (released) return;
      released = true;
      held.leases--;
      if (held.leases === 0 && entries.get(key) === held) {
        entries.delete(key);
        await held.session.close();
      }
    },
  };
}

export async function closeAllDatabricksSessions(): Promise<void> {
  const all = [...entries.values()];
  entries.clear();
  await Promise.all(all.map((e) => e.session.close()));
}

export function openDatabricksSessionCount(): number {
  return entries.size;
}
