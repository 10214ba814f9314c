import type { Store } from '../../store/db';
import { readCloneJobsPage, readCloneRecord } from '../../store/clone/clone-record';
import { cloneProgressCounts } from '../../store/clone/clone-state';
import { createJob, getJob, listJobs } from '../../store/jobs/jobs';
import { appendRunLog, readRunLog } from '../../store/jobs/run-logs';
import { cloneJobTables } from '../../store/schema';
import { createTestStore, storeBackends } from '../helpers/db';

describe.each(storeBackends())('a clone record read in one statement on %s', (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore(backend);
  });
  afterAll(async () => {
    await store?.close();
  });

  const table = (jobId: string, tableName: string, status: string, bytesCopied: number) => ({
    jobId,
    target: 'default',
    schemaName: 'sales',
    tableName,
    status,
    bytesCopied,
  });

  test("holds the job's own row, log and counts, as the separate reads give them, and nothing of another job", async () => {
    for (const jobId of ['clone-rec-a', 'clone-rec-b']) {
      await createJob(store.db, {
        jobId,
        jobType: 'clone',
        status: 'running',
        sourceCatalog: 'a',
        destinationCatalog: 'b',
      });
    }
    await appendRunLog(store.db, 'clone-rec-a', [
      { message: 'queued' },
      { message: 'schema sales done', level: 'warn', data: { event: 'schema_finished' } },
    ]);
    await appendRunLog(store.db, 'clone-rec-b', [
      { message: 'other job', data: { event: 'schema_finished' } },
      { message: 'other job again', data: { event: 'schema_finished' } },
    ]);
    await store.db
      .insert(cloneJobTables)
      .values([
        table('clone-rec-a', 'orders', 'cloned', 100),
        table('clone-rec-a', 'items', 'failed', 0),
        table('clone-rec-b', 'orders', 'cloned', 7),
        table('clone-rec-b', 'users', 'cloned', 8),
        table('clone-rec-b', 'events', 'skipped', 0),
      ]);

    const record = await readCloneRecord(store.db, 'clone-rec-a');
    expect(record?.row).toEqual(await getJob(store.db, 'clone-rec-a'));
    expect(record?.logs).toEqual(
      (await readRunLog(store.db, 'clone-rec-a')).map(({ ts, level, message }) => ({ ts, level, message })),
    );
    expect(record?.logs.map((l) => l.message)).toEqual(['queued', 'schema sales done']);
    expect(record?.counts).toEqual(await cloneProgressCounts(store.db, 'clone-rec-a'));
    expect(record?.counts).toEqual({ cloned: 1, failed: 1, skipped: 0, bytes: 100, schemasDone: 1 });
    expect((await readCloneRecord(store.db, 'clone-rec-b'))?.counts).toEqual({
      cloned: 2,
      failed: 0,
      skipped: 1,
      bytes: 15,
      schemasDone: 2,
    });
  });

  test('a job with no log and no tables has empty ones; an unknown job has no record', async () => {
    await createJob(store.db, { jobId: 'clone-rec-c', jobType: 'clone', status: 'queued' });
    const record = await readCloneRecord(store.db, 'clone-rec-c');
    expect(record?.logs).toEqual([]);
    expect(record?.counts).toEqual({ cloned: 0, failed: 0, skipped: 0, bytes: 0, schemasDone: 0 });
    expect(await readCloneRecord(store.db, 'clone-rec-none')).toBeUndefined();
  });

  test("a page of clone jobs holds the list's rows in its order, each with its own counts, in one statement", async () => {
    // Jobs of the earlier tests are on the page too (a, b running; c queued), plus these two of other types/times.
    await createJob(store.db, {
      jobId: 'clone-rec-d',
      jobType: 'clone',
      status: 'completed',
      createdAt: new Date(Date.now() + 60_000),
    });
    await createJob(store.db, { jobId: 'sync-rec-e', jobType: 'sync', status: 'running' });
    const page = await readCloneJobsPage(store.db, { jobType: 'clone', limit: 100, offset: 0 });
    const listed = await listJobs(store.db, { jobType: 'clone', limit: 100, offset: 0 });
    expect(page.map((p) => p.row)).toEqual(listed);
    expect(page[0].row.jobId).toBe('clone-rec-d');
    expect(page.map((p) => p.row.jobId).sort()).toEqual(['clone-rec-a', 'clone-rec-b', 'clone-rec-c', 'clone-rec-d']);
    for (const { row, counts } of page) expect(counts).toEqual(await cloneProgressCounts(store.db, row.jobId));
    expect(page.find((p) => p.row.jobId === 'clone-rec-b')?.counts).toEqual({
      cloned: 2,
      failed: 0,
      skipped: 1,
      bytes: 15,
      schemasDone: 2,
    });

    const running = await readCloneJobsPage(store.db, { jobType: 'clone', status: 'running', limit: 100, offset: 0 });
    expect(running.map((p) => p.row.jobId).sort()).toEqual(['clone-rec-a', 'clone-rec-b']);
    const second = await readCloneJobsPage(store.db, { jobType: 'clone', limit: 2, offset: 1 });
    expect(second.map((p) => p.row)).toEqual(listed.slice(1, 3));
  });
});
