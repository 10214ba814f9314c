import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { Pool } from 'pg';
import { migratePglite, migratePostgres } from './migrate';
import { pgliteAssets } from './pglite-assets';
import * as schema from './schema';

export type Schema = typeof schema;
/** The drizzle database every repository function takes: the same type over pg and PGlite. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Store {
  db: Db;
  driver: 'postgres' | 'pglite';
  /** Where the data lives, without credentials (for health output and logs). */
  location: string;
  /** True when a trivial query answers within the timeout. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** postgres://… selects a Postgres server. */
  databaseUrl?: string | null;
  /** Without databaseUrl: PGlite files live in `<dataDir>/pglite`; without either, PGlite runs in memory. */
  dataDir?: string | null;
}

/** Opens the store and applies pending migrations before returning, so callers always see the current schema. */
export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir ?? null);
}

async function openPostgres(url: string): Promise<Store> {
  await migratePostgres(url);
  const pool = new Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return makeStore(db, 'postgres', redactUrl(url), () => pool.end());
}

async function openPglite(dataDir: string | null): Promise<Store> {
  const dir = dataDir ? path.join(dataDir, 'pglite') : null;
  if (dir) mkdirSync(dir, { recursive: true });
  const client = new PGlite({ ...(dir ? { dataDir: dir } : {}), ...(await pgliteAssets()) });
  try {
    const db = drizzlePglite(client, { schema });
    await migratePglite(db);
    return makeStore(db as unknown as Db, 'pglite', dir ?? 'memory', () => client.close());
  } catch (err) {
    await client.close();
    throw err;
  }
}

function makeStore(db: Db, driver: Store['driver'], location: string, close: () => Promise<void>): Store {
  let closed = false;
  return {
    db,
    driver,
    location,
    async ping(timeoutMs = 2000) {
      if (closed) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      const query = db.execute(sql`select 1`).then(
        () => true,
        () => false,
      );
      try {
        return await Promise.race([query, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await close();
    },
  };
}

/** postgres://user:secret@host/db → postgres://user@host/db */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return 'postgres';
  }
}
