import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../store/db';
import { createJob, getJob } from '../../store/jobs/jobs';
import { createTestDatabase } from '../helpers/db';

test('the embedded PGlite store keeps rows in the data folder across restarts', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lakeward-store-'));
  try {
    const first = await openStore({ dataDir });
    expect(first.driver).toBe('pglite');
    await createJob(first.db, { jobId: 'persisted', jobType: 'clone', status: 'completed' });
    await first.close();

    const second = await openStore({ dataDir }); // migrations run again and must be a no-op
    expect(await second.ping()).toBe(true);
    expect((await getJob(second.db, 'persisted'))!.status).toBe('completed');
    await second.close();
    expect(await second.ping()).toBe(false);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

// Skipped without DATABASE_URL: there is no Postgres server to race on (PGlite is single-process).
const pgTest = process.env.DATABASE_URL ? test : test.skip;
pgTest('API and worker starting together on one Postgres database both migrate it without a clash', async () => {
  const database = await createTestDatabase();
  try {
    const [a, b] = await Promise.all([
      openStore({ databaseUrl: database.url }),
      openStore({ databaseUrl: database.url }),
    ]);
    await createJob(a.db, { jobId: 'shared', jobType: 'clone', status: 'queued' });
    expect((await getJob(b.db, 'shared'))!.status).toBe('queued');
    expect(b.driver).toBe('postgres');
    await Promise.all([a.close(), b.close()]);
  } finally {
    await database.drop();
  }
});
