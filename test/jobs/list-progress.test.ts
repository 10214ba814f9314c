import request from 'supertest';
import { createApp } from '../../api/app';
import type { Store } from '../../store/db';
import { createJob } from '../../store/jobs/jobs';
import { appendRunLog } from '../../store/jobs/run-logs';
import { cloneJobTables } from '../../store/schema';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

let store: Store;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(async () => {
  await store?.close();
});

const table = (jobId: string, name: string, status: string, bytesCopied = 0) => ({
  jobId,
  target: 'local',
  schemaName: 'sales',
  tableName: name,
  status,
  bytesCopied,
});
const schemaFinished = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    level: 'info',
    message: `schema s${i} finished`,
    data: { event: 'schema_finished' },
  }));

/** Three clone jobs with different recorded results and a job of a type this app does not know. */
async function seed(): Promise<Record<string, string>> {
  const ids = { running: 'clone-list-running', done: 'clone-list-done', queued: 'clone-list-queued' };
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
  await createJob(store.db, {
    jobId: ids.running,
    jobType: 'clone',
    status: 'running',
    createdAt: at(1),
    progress: { 'planned:local': { schemas: 2, tables: 5 } },
  });
  await createJob(store.db, { jobId: ids.done, jobType: 'clone', status: 'completed', createdAt: at(2) });
  await createJob(store.db, { jobId: ids.queued, jobType: 'clone', status: 'queued', createdAt: at(3) });
  await createJob(store.db, {
    jobId: 'mystery-list-1',
    jobType: 'mystery',
    status: 'running',
    createdAt: at(4),
    progress: { completed: 1, total: 4 },
  });
  await store.db
    .insert(cloneJobTables)
    .values([
      table(ids.running, 'a', 'cloned', 100),
      table(ids.running, 'b', 'cloned', 200),
      table(ids.running, 'c', 'failed'),
      table(ids.done, 'a', 'cloned', 10),
      table(ids.done, 'b', 'cloned', 10),
      table(ids.done, 'c', 'cloned', 10),
      table(ids.done, 'd', 'skipped'),
    ]);
  await appendRunLog(store.db, ids.running, schemaFinished(1));
  await appendRunLog(store.db, ids.done, schemaFinished(2));
  return ids;
}

test('the jobs list shows each job its own progress, the same as its record, for every job on the page', async () => {
  const ids = await seed();
  const app = createApp(testAppDeps({ store }));
  const list = (await request(app).get('/api/clone/jobs').expect(200)).body as {
    job_id: string;
    progress: Record<string, unknown>;
  }[];
  const progress = (id: string) => {
    const item = list.find((j) => j.job_id === id);
    const { eta_seconds: _eta, ...rest } = item!.progress;
    return rest;
  };
  expect(progress(ids.running)).toEqual({
    completed: 3,
    total: 5,
    schemas: '1/2',
    tables: '3/5',
    tables_failed: 1,
    tables_skipped: 0,
    bytes_copied: 300,
  });
  expect(progress(ids.done)).toEqual({
    completed: 4,
    total: 4,
    schemas: '2/2',
    tables: '4/4',
    tables_failed: 0,
    tables_skipped: 1,
    bytes_copied: 30,
  });
  expect(progress(ids.queued)).toMatchObject({ completed: 0, total: 0, bytes_copied: 0 });
  for (const id of Object.values(ids)) {
    const record = (await request(app).get(`/api/clone/${id}`).expect(200)).body;
    const { eta_seconds: _eta, ...own } = record.progress;
    expect(own).toEqual(progress(id));
  }

  const all = (await request(app).get('/api/jobs').expect(200)).body as { job_id: string; progress: unknown }[];
  expect(all.map((j) => j.job_id)).toEqual(['mystery-list-1', ids.queued, ids.done, ids.running]);
  expect(all[0].progress).toMatchObject({ completed: 1, total: 4 });
});
