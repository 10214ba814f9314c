import type { TestWorkflowEnvironment } from '@temporalio/testing';
import request from 'supertest';
import { createApp } from '../../api/app';
import { MetadataCache, metadataCacheFor } from '../../api/cache';
import type { AppDeps } from '../../api/deps';
import type { Store } from '../../store/db';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { createTestStore } from '../helpers/db';
import { connectTestEnv } from '../helpers/temporal';
import { jobAppDeps } from './api-app';
import { eventually, startJobWorker, type JobWorker } from './harness';

let env: TestWorkflowEnvironment;
let store: Store;
let w: JobWorker;
let deps: AppDeps;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  env = await connectTestEnv();
  store = await createTestStore();
  w = await startJobWorker(env, store);
  deps = jobAppDeps(env, store, w.taskQueue);
  app = createApp(deps);
});
afterAll(async () => {
  metadataCacheFor(deps).watcher.stop();
  await env.client.workflow
    .getHandle(jobQueueWorkflowId('clone', w.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await w?.stop();
  await store?.close();
  await env?.teardown();
});

/** The job's end is recorded (completed_at set: the job row, audit and notification are written together). */
const ended = async (id: string, want: string) => {
  const body = (await request(app).get(`/api/clone/${id}`).expect(200)).body;
  return body.status === want && Boolean(body.completed_at);
};
const load = (value: string) => async () => value;

test('cache entries expire after the TTL', async () => {
  let now = 0;
  const cache = new MetadataCache(300, () => now);
  expect(await cache.getOrLoad('k', 'c', load('v1'))).toBe('v1');
  now = 299_000;
  expect(await cache.getOrLoad('k', 'c', load('v2'))).toBe('v1');
  now = 300_000;
  expect(await cache.getOrLoad('k', 'c', load('v3'))).toBe('v3');
  expect(cache.stats()).toEqual({ hits: 1, misses: 2, size: 1, ttl_seconds: 300 });
});

test('cache stats, invalidate and clear through the API; a finished clone invalidates its catalogs', async () => {
  const { cache } = metadataCacheFor(deps);
  expect((await request(app).get('/api/cache/stats').expect(200)).body).toEqual({
    hits: 0,
    misses: 0,
    size: 0,
    ttl_seconds: 300,
  });
  await cache.getOrLoad('schemas:sales', 'sales', load('s'));
  await cache.getOrLoad('schemas:sales', 'sales', load('s'));
  await cache.getOrLoad('schemas:other', 'other', load('o'));
  expect((await request(app).get('/api/cache/stats').expect(200)).body).toEqual({
    hits: 1,
    misses: 2,
    size: 2,
    ttl_seconds: 300,
  });

  expect((await request(app).post('/api/cache/invalidate').send({ catalog: 'SALES' }).expect(200)).body).toEqual({
    status: 'invalidated',
    catalog: 'SALES',
    entries_removed: 1,
  });
  const bad = await request(app).post('/api/cache/invalidate').send({}).expect(400);
  expect(bad.body.error.details[0].path).toBe('body.catalog');
  expect((await request(app).post('/api/cache/clear').expect(200)).body).toEqual({ status: 'cleared' });
  expect((await request(app).get('/api/cache/stats').expect(200)).body.size).toBe(0);

  cache.set('tables:sales', ['t1'], 'sales');
  cache.set('tables:sales_copy', [], 'sales_copy');
  cache.set('tables:other', ['x'], 'other');
  const id = (
    await request(app)
      .post('/api/clone')
      .send({ source_catalog: 'sales', destination_catalog: 'sales_copy' })
      .expect(200)
  ).body.job_id;
  await eventually(() => ended(id, 'completed'));
  await eventually(async () => (await request(app).get('/api/cache/stats').expect(200)).body.size === 1);
  expect(cache.get('tables:other')).toEqual(['x']);
  expect(cache.get('tables:sales_copy')).toBeUndefined();
});

test('job ends become success/failure notifications; unread_count resets once the client has looked', async () => {
  await request(app).get('/api/notifications').expect(200); // look once: earlier jobs are now seen
  const ok = (
    await request(app).post('/api/clone').send({ source_catalog: 'n_ok', destination_catalog: 'n_dst' }).expect(200)
  ).body.job_id;
  await eventually(() => ended(ok, 'completed'));
  const blocked = (
    await request(app).post('/api/clone').send({ source_catalog: 'block_n', destination_catalog: 'n_dst' }).expect(200)
  ).body.job_id;
  await eventually(async () => w.trace.blocking.has(blocked));
  await request(app).delete(`/api/clone/${blocked}`).expect(200);
  // The live workflow says "cancelled" a moment before the job's end (and its notification) is recorded.
  await eventually(() => ended(blocked, 'cancelled'));

  const peek = (await request(app).get('/api/notifications?peek=true').expect(200)).body;
  expect(peek.unread_count).toBe(2);
  expect(peek.items.slice(0, 2)).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        type: 'success',
        status: 'completed',
        job_id: ok,
        message: expect.stringMatching(/n_ok → n_dst completed: 2 tables cloned/),
      }),
      expect.objectContaining({ type: 'failure', status: 'cancelled', job_id: blocked }),
    ]),
  );
  expect((await request(app).get('/api/notifications').expect(200)).body.unread_count).toBe(2);
  expect((await request(app).get('/api/notifications').expect(200)).body.unread_count).toBe(0);

  const audit = (await request(app).get('/api/audit').expect(200)).body as {
    job_id: string;
    action: string;
    status: string;
    duration: number | null;
  }[];
  expect(
    audit
      .filter((a) => a.job_id === ok)
      .map((a) => a.action)
      .sort(),
  ).toEqual(['clone', 'clone_queued']);
  expect(audit.find((a) => a.job_id === ok && a.action === 'clone')).toMatchObject({
    status: 'completed',
    duration: expect.any(Number),
  });
  const full = (await request(app).get(`/api/audit/${ok}/logs`).expect(200)).body;
  expect(full).toMatchObject({ job_id: ok, status: 'completed' });
  expect(full.logs.map((l: { type: string }) => l.type)).toEqual(
    expect.arrayContaining(['table_started', 'completed']),
  );
  await request(app).get('/api/audit/clone-20200101-000000-abcd/logs').expect(404);
});
