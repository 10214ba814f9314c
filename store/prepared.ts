import type { Db } from './db';

/**
 * A statement built once per database handle and run with placeholders (drizzle `prepare`): the hot reads (a job
 * polled by every console tab and load balancer, its log, its progress) skip rebuilding their SQL on every call,
 * which cost more CPU than the round trip itself, and on Postgres each connection parses and plans it once.
 * `name` is the server-side statement name: one SQL text per name.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let stmt = built.get(db);
    if (stmt === undefined) {
      stmt = build(db);
      built.set(db, stmt);
    }
    return stmt;
  };
}
