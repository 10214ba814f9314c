import { StoreRateLimiter } from '../../activities/clone/token-bucket';
import { claimTableStart } from '../../store/clone/throttle-starts';
import { openStore, type Store } from '../../store/db';
import { createTestDatabase, createTestStore, storeBackends } from '../helpers/db';

/**
 * The per-job limits that every worker shares through the store: max_rps slots (store/clone/rate-slots) and
 * tables_per_minute starts, each drawn by two separate store connections (two worker processes on Postgres,
 * one process on PGlite) for the same job.
 */
async function twoConnections(backend: 'pglite' | 'postgres'): Promise<{ a: Store; b: Store; close(): Promise<void> }> {
  if (backend === 'pglite') {
    const a = await createTestStore('pglite');
    return { a, b: a, close: () => a.close() };
  }
  const database = await createTestDatabase();
  const a = await openStore({ databaseUrl: database.url });
  const b = await openStore({ databaseUrl: database.url });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await database.drop();
    },
  };
}

describe.each(storeBackends())('shared per-job limits on %s', (backend) => {
  let stores: Awaited<ReturnType<typeof twoConnections>>;
  beforeAll(async () => {
    stores = await twoConnections(backend);
  }, 60_000);
  afterAll(async () => stores?.close());

  test('max_rps: two limiters of one job (one per connection) space requests at the job rate in total', async () => {
    const rate = 20;
    const one = new StoreRateLimiter(stores.a.db, 'job-rps', rate);
    const two = new StoreRateLimiter(stores.b.db, 'job-rps', rate);
    const times: number[] = [];
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? one : two).take().then(() => times.push(Date.now() - t0))),
    );
    times.sort((x, y) => x - y);
    // Slots are 50 ms apart whoever asks: the k-th request never goes out before k × 50 ms (a late timer can only
    // make it later), so twelve take 550 ms; two separate buckets would have let the twelfth out at 250 ms.
    times.forEach((t, k) => expect({ k, t: Math.max(t, k * 50 - 15) }).toEqual({ k, t }));
    expect(times[11]).toBeGreaterThanOrEqual(11 * 50 - 15);

    // Another job has its own slots: it does not queue behind this one.
    const other = new StoreRateLimiter(stores.b.db, 'job-other', rate);
    const before = Date.now();
    await other.take();
    expect(Date.now() - before).toBeLessThan(200);
  });

  test('max_rps 0 means unlimited and reserves nothing', async () => {
    const none = new StoreRateLimiter(stores.a.db, 'job-free', 0);
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 50 }, () => none.take()));
    expect(Date.now() - t0).toBeLessThan(200);
  });

  test('tables_per_minute on the database clock: claims from both connections share one cap', async () => {
    const claims = await Promise.all(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((t, i) => claimTableStart((i % 2 ? stores.a : stores.b).db, 'job-tpm', t, 4)),
    );
    expect(claims.filter((w) => w === 0)).toHaveLength(4);
    // The two refused wait until the first start leaves the 60 s window: just under a minute.
    for (const w of claims.filter((x) => x > 0)) {
      expect(w).toBeGreaterThan(55_000);
      expect(w).toBeLessThanOrEqual(60_000);
    }
  });
});
