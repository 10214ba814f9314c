import { existsSync } from 'node:fs';
import path from 'node:path';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migrateWithPglite } from 'drizzle-orm/pglite/migrator';
import { Client } from 'pg';

/** Arbitrary constant: the advisory lock that serialises migrations between processes sharing a server. */
const MIGRATION_LOCK_ID = 7_233_080;

/** store/migrations, also when running compiled code from dist/store. */
export function migrationsFolder(): string {
  const candidates = [path.join(__dirname, 'migrations'), path.resolve(__dirname, '../../store/migrations')];
  const found = candidates.find((dir) => existsSync(path.join(dir, 'meta/_journal.json')));
  if (!found) throw new Error(`store migrations not found (looked in ${candidates.join(', ')})`);
  return found;
}

/**
 * Applies pending migrations on a Postgres server. The API and worker processes may start together, so
 * one dedicated connection holds an advisory lock while drizzle's migrator runs.
 */
export async function migratePostgres(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migrateNodePg(drizzlePg(client), { migrationsFolder: migrationsFolder() });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await client.end();
  }
}

/** PGlite is single-process, so no lock is needed. */
export async function migratePglite(db: PgliteDatabase<Record<string, unknown>>): Promise<void> {
  await migrateWithPglite(db, { migrationsFolder: migrationsFolder() });
}
