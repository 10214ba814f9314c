import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { listJobSpans } from '../../store/finops/repo';
import { getWarehouse, insertWarehouse } from '../../store/warehouses/repo';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { harnessAppDeps } from '../helpers/harness-app';
import { createHarness, type Harness } from '../helpers/harness';
import { ORDERS_FQN, seedOrders } from './fixtures';

let h: Harness;
let app: Express;
const G = '/api/governance/dqx';

beforeAll(async () => {
  h = await createHarness('dq-wh');
  const root = h.config.workspace.root;
  await seedOrders(h.open(root));
  app = createApp(harnessAppDeps(h));
  await insertWarehouse(h.store.db, {
    id: 'wh-dq',
    location: 'local',
    state: 'STOPPED',
    creatorName: null,
    spec: {
      name: 'dq-pool',
      clusterSize: '2X-Small',
      minNumClusters: 1,
      maxNumClusters: 1,
      autoStopMins: 0,
      warehouseType: 'PRO',
      enableServerlessCompute: false,
      enablePhoton: true,
      channel: 'CHANNEL_NAME_CURRENT',
      tags: [],
    },
  });
  await request(app)
    .post(`${G}/checks`)
    .send({ table_fqn: ORDERS_FQN, check_function: 'is_not_null', arguments: { column: 'customer' } })
    .expect(201);
}, 120_000);
afterAll(async () => {
  await h.env.client.workflow
    .getHandle(jobQueueWorkflowId('dq', h.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await h?.teardown();
});

const worker = <T>(fn: () => Promise<T>) =>
  h.withWorker(fn, { deps: { config: { ...h.config, temporal: { ...h.config.temporal, task_queue: h.taskQueue } } } });

test('a DQ run on a named STOPPED warehouse starts it, runs there and records the job’s span on it', async () => {
  const run = await worker(
    async () =>
      (await request(app).post(`${G}/run`).send({ table_fqn: ORDERS_FQN, warehouse_id: 'wh-dq' }).expect(200)).body,
  );
  expect(run).toMatchObject({ table_fqn: ORDERS_FQN, status: 'completed', total_rows: 10 });
  expect((await getWarehouse(h.store.db, 'wh-dq'))?.state).toBe('RUNNING');
  const spans = (await listJobSpans(h.store.db)).filter((s) => s.jobId === run.run_id);
  expect(spans.length).toBeGreaterThan(0);
  expect(new Set(spans.map((s) => s.warehouseId))).toEqual(new Set(['wh-dq']));
  expect(spans.every((s) => s.jobType === 'dq' && s.busyMs > 0)).toBe(true);
});

test('an unknown warehouse fails the run at once with the reason (no retry)', async () => {
  const started = Date.now();
  const run = await worker(
    async () =>
      (await request(app).post(`${G}/run`).send({ table_fqn: ORDERS_FQN, warehouse_id: 'ghost' }).expect(200)).body,
  );
  expect(run).toMatchObject({ status: 'failed', error: expect.stringMatching(/SQL warehouse ghost does not exist/) });
  // The retry policy's first backoff is 1 s; a logical failure never waits for it.
  const log = (await request(app).get(`/api/jobs/${run.run_id}`).expect(200)).body.logs as string[];
  expect(log.join('\n')).not.toMatch(/retry/i);
  expect(Date.now() - started).toBeLessThan(60_000);
});
