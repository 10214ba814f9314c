import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openStore, type Store } from '../../store/db';

export type Backend = 'pglite' | 'postgres';

/** Back ends to run store tests on: PGlite always, Postgres too when DATABASE_URL names a server. */
export function storeBackends(): Backend[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * A fresh, migrated store for one test file. Default back end: Postgres when DATABASE_URL is set, else
 * in-memory PGlite. On Postgres it creates its own database `lakeward_t_<random>` and drops it on close(),
 * so test files running in parallel never see each other's rows.
 */
export async function createTestStore(
  backend: Backend = process.env.DATABASE_URL ? 'postgres' : 'pglite',
): Promise<Store> {
  if (backend === 'pglite') return openStore({});
  const database = await createTestDatabase();
  try {
    const store = await openStore({ databaseUrl: database.url });
    return {
      ...store,
      async close() {
        await store.close();
        await database.drop();
      },
    };
  } catch (err) {
    await database.drop();
    throw err;
  }
}

/** An empty database `lakeward_t_<random>` on the DATABASE_URL server; `drop()` removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('a Postgres test database needs DATABASE_URL');
  const name = `lakeward_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
