import type { TestWorkflowEnvironment } from '@temporalio/testing';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { Store } from '../../store/db';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { createTestStore } from '../helpers/db';
import { connectTestEnv } from '../helpers/temporal';
import { jobAppDeps } from './api-app';
import { eventually, startJobWorker, type JobWorker } from './harness';

let env: TestWorkflowEnvironment;
let store: Store;
let w: JobWorker;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  env = await connectTestEnv();
  store = await createTestStore();
  w = await startJobWorker(env, store);
  app = createApp(jobAppDeps(env, store, w.taskQueue));
});
afterAll(async () => {
  await env.client.workflow
    .getHandle(jobQueueWorkflowId('clone', w.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await w?.stop();
  await store?.close();
  await env?.teardown();
});

const job = async (id: string) => (await request(app).get(`/api/clone/${id}`).expect(200)).body;

test.each([
  [
    { source_catalog: 'sales', destination_catalog: 'sales' },
    'body.destination_catalog',
    /must differ from source_catalog/,
  ],
  [
    { source_catalog: 'a', destination_catalog: 'b', include_tables_regex: '(' },
    'body.include_tables_regex',
    /regular expression/,
  ],
  [{ source_catalog: 'a', destination_catalog: 'b', max_workers: -1 }, 'body.max_workers', /./],
  [{ source_catalog: 'a', destination_catalog: 'b', dq_drift_rollback_pct: 101 }, 'body.dq_drift_rollback_pct', /./],
  [
    { source_catalog: 'a', destination_catalog: 'b', template: 'no-such-template' },
    'body.template',
    /unknown template/,
  ],
  [{ destination_catalog: 'b' }, 'body.source_catalog', /./],
])('a bad clone request is refused naming the field (%#)', async (body, path, message) => {
  const res = await request(app).post('/api/clone').send(body);
  expect([400, 422]).toContain(res.status);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  const detail = res.body.error.details.find((d: { path: string }) => d.path === path);
  expect(detail?.message).toMatch(message);
  expect(res.body.request_id).toEqual(expect.any(String));
});

test('a job goes queued → running → completed through the API, with progress, result and logs', async () => {
  const res = await request(app)
    .post('/api/clone')
    .send({
      source: 'sales',
      destination: 'sales_copy',
      clone_type: 'shallow',
      template: 'dev-refresh',
      validate: true,
    })
    .expect(200);
  expect(res.body).toMatchObject({ status: 'queued', message: expect.any(String) });
  expect(res.body.job_id).toMatch(/^clone-\d{8}-\d{6}-[0-9a-f]{4}$/);
  const id = res.body.job_id as string;

  const done = await eventually(async () => {
    const body = await job(id);
    return body.status === 'completed' ? body : null;
  });
  expect(done).toMatchObject({
    job_id: id,
    source_catalog: 'sales',
    destination_catalog: 'sales_copy',
    clone_type: 'SHALLOW',
    progress: { completed: 2, total: 2 },
    result: { tables_cloned: 2, tables_failed: 0 },
    tables_cloned: 2,
    bytes_copied: 2048,
  });
  expect(Date.parse(done.created_at)).toBeLessThanOrEqual(Date.parse(done.completed_at));
  expect(done.logs.join('\n')).toMatch(/table_finished[\s\S]*completed/);
  expect(done.request).toMatchObject({ validate_after_clone: true, template: 'dev-refresh' });

  const list = await request(app).get('/api/clone/jobs').expect(200);
  expect(list.body.find((j: { job_id: string }) => j.job_id === id)).toMatchObject({
    status: 'completed',
    clone_type: 'SHALLOW',
  });
  expect((await request(app).get('/api/clone').expect(200)).body.length).toBe(list.body.length);
  expect((await request(app).delete(`/api/clone/${id}`)).status).toBe(409);
});

test('cancel stops a running job (its activity sees it) and a queued job never starts; unknown ids are 404', async () => {
  const running = (
    await request(app).post('/api/clone').send({ source_catalog: 'block_a', destination_catalog: 'x' }).expect(200)
  ).body.job_id;
  await eventually(async () => w.trace.blocking.has(running));
  expect((await job(running)).status).toBe('running');
  expect((await job(running)).progress).toMatchObject({ completed: 0, total: 2 });
  const queued = (
    await request(app).post('/api/clone').send({ source_catalog: 'q', destination_catalog: 'x' }).expect(200)
  ).body.job_id;
  expect(await job(queued)).toMatchObject({ status: 'queued', queue_position: 1 });

  expect((await request(app).post(`/api/clone/${queued}/cancel`).expect(200)).body).toMatchObject({
    status: 'cancelled',
    job_id: queued,
  });
  expect((await job(queued)).status).toBe('cancelled');
  const startedAt = Date.now();
  expect((await request(app).delete(`/api/clone/${running}`).expect(200)).body).toMatchObject({
    status: 'cancelling',
    job_id: running,
  });
  // From the DELETE until its end is recorded the job reads `cancelling`, never `cancelled` without completed_at.
  const during = await job(running);
  expect(during.status === 'cancelling' || (during.status === 'cancelled' && during.completed_at)).toBe(true);
  await eventually(async () => w.trace.cancelledActivities.includes(running));
  expect(Date.now() - startedAt).toBeLessThan(5000);
  await eventually(async () => (await job(running)).status === 'cancelled');
  expect(w.trace.copied.filter((c) => c.startsWith(running) || c.startsWith(queued))).toEqual([]);

  const missing = await request(app).delete('/api/clone/clone-20200101-000000-abcd').expect(404);
  expect(missing.body.error.code).toBe('NOT_FOUND');
  await request(app).post('/api/clone/clone-20200101-000000-abcd/cancel').expect(404);
  await request(app).get('/api/clone/clone-20200101-000000-abcd').expect(404);
});

test('with one clone running and ten waiting, the eleventh waiting request gets 429 QUEUE_FULL', async () => {
  const blocker = (
    await request(app).post('/api/clone').send({ source_catalog: 'block_b', destination_catalog: 'x' }).expect(200)
  ).body.job_id;
  await eventually(async () => w.trace.blocking.has(blocker));
  const waiting: string[] = [];
  for (let i = 0; i < 10; i++) {
    waiting.push(
      (
        await request(app)
          .post('/api/clone')
          .send({ source_catalog: `w${i}`, destination_catalog: 'x' })
          .expect(200)
      ).body.job_id,
    );
  }
  const refused = await request(app)
    .post('/api/clone')
    .send({ source_catalog: 'w11', destination_catalog: 'x' })
    .expect(429);
  expect(refused.body.error).toMatchObject({ code: 'QUEUE_FULL', message: expect.stringMatching(/queue is full/) });
  const list = (await request(app).get('/api/clone/jobs?status=queued').expect(200)).body as {
    source_catalog: string;
  }[];
  expect(list.map((j) => j.source_catalog)).not.toContain('w11');

  for (const id of [...waiting, blocker]) await request(app).post(`/api/clone/${id}/cancel`).expect(200);
  await eventually(async () => (await job(blocker)).status === 'cancelled');
});
