import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { Workspace } from '../../platform/port';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { harnessAppDeps } from '../helpers/harness-app';
import { createHarness, type Harness } from '../helpers/harness';
import { ORDER_ROWS, ORDERS_FQN, seedOrders } from './fixtures';

let h: Harness;
let app: Express;
let root: string;
const queries: string[] = [];

/** The worker's workspace, counting every query the port receives. */
const counting = (ws: Workspace): Workspace =>
  new Proxy(ws, {
    get(target, prop, receiver) {
      if (prop === 'query')
        return (sql: string) => {
          queries.push(sql);
          return target.query(sql);
        };
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });

beforeAll(async () => {
  h = await createHarness('dq-runs');
  root = h.config.workspace.root;
  const ws = h.open(root);
  await seedOrders(ws);
  await ws.createTable({
    ref: { catalog: 'shop', schema: 'sales', name: 'returns' },
    columns: [{ name: 'id', type: 'bigint' }],
  });
  await ws.insertRows({ catalog: 'shop', schema: 'sales', name: 'returns' }, [{ id: 1 }, { id: null }]);
  app = createApp(harnessAppDeps(h));
});
afterAll(async () => {
  await h.env.client.workflow
    .getHandle(jobQueueWorkflowId('dq', h.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await h?.teardown();
});

const G = '/api/governance/dqx';
const addCheck = async (body: Record<string, unknown>) =>
  (
    await request(app)
      .post(`${G}/checks`)
      .send({ table_fqn: ORDERS_FQN, ...body })
      .expect(201)
  ).body[0].id as string;
const worker = <T>(fn: () => Promise<T>) => h.withWorker(fn, { wrap: counting });

test('a run with no enabled checks is a 409 with a clear message, not a passing run', async () => {
  const res = await request(app).post(`${G}/run`).send({ table_fqn: ORDERS_FQN }).expect(409);
  expect(res.body.error.message).toMatch(/no enabled checks/);
});

test('3 error and 2 warn checks: warn-only rows are valid and warning rows; valid + invalid = total; one scan', async () => {
  const ids = [
    await addCheck({ check_function: 'is_not_null', arguments: { column: 'customer' } }),
    await addCheck({ check_function: 'is_not_less_than', arguments: { column: 'amount', limit: 0 } }),
    await addCheck({ check_function: 'is_in_range', arguments: { column: 'id', min_limit: 1, max_limit: 9 } }),
    await addCheck({
      check_function: 'is_in_list',
      arguments: { column: 'status', allowed: ['new', 'paid'] },
      criticality: 'warn',
    }),
    await addCheck({
      check_function: 'is_not_greater_than',
      arguments: { column: 'amount', limit: 500 },
      criticality: 'warning',
    }),
  ];
  await request(app)
    .get(`/data-quality/coverage/shop`)
    .expect(200, /"coverage_pct":50/);

  const run = await worker(
    async () => (await request(app).post(`${G}/run`).send({ table_fqn: ORDERS_FQN }).expect(200)).body,
  );
  expect(run).toMatchObject({
    table_fqn: ORDERS_FQN,
    status: 'completed',
    total_rows: 10,
    invalid_rows: 4, // rows 3, 4, 7, 10
    valid_rows: 6,
    warning_rows: 2, // rows 5 and 9 fail only warn checks
    pass_rate: 60,
    checks_applied: 5,
  });
  expect(run.run_id).toMatch(/^dq-\d{8}-\d{6}-[0-9a-f]{4}$/);
  expect(run.check_results.map((c: { check_id: string; failures: number }) => [c.check_id, c.failures])).toEqual(
    expect.arrayContaining([
      [ids[0], 2],
      [ids[1], 1],
      [ids[2], 1],
      [ids[3], 2],
      [ids[4], 2],
    ]),
  );
  // One table scan for the five row checks, plus the one bounded samples query; after the run, one more scan
  // measures the table's metrics for anomaly detection (data-quality operations), apart from the checks.
  const metrics = queries.filter((q) => q.startsWith('SELECT count(*) AS _lw_rows'));
  const checkQueries = queries.filter((q) => !metrics.includes(q));
  expect(checkQueries).toHaveLength(2);
  expect(checkQueries[1]).toMatch(/LIMIT 10\b/);
  expect(metrics).toHaveLength(1);

  // Read later by run id, and its failure samples: one per failing row, with the checks it failed.
  expect((await request(app).get(`${G}/runs/${run.run_id}`).expect(200)).body).toEqual(run);
  const samples = (await request(app).get(`/api/data-quality/failure-samples?run_id=${run.run_id}`).expect(200)).body;
  expect(samples.map((s: { row_data: { id: number } }) => s.row_data.id).sort((a: number, b: number) => a - b)).toEqual(
    [3, 4, 5, 7, 9, 10],
  );
  const row7 = samples.find((s: { row_data: { id: number } }) => s.row_data.id === 7);
  expect(row7.row_data).toEqual(ORDER_ROWS[6]);
  expect(row7.failed_checks.errors).toHaveLength(1);
  expect(row7.failed_checks.warnings).toHaveLength(2);

  // The job is an ordinary dq job of the kernel.
  const job = (await request(app).get(`/api/jobs/${run.job_id}`).expect(200)).body;
  expect(job).toMatchObject({ job_type: 'dq', status: 'completed' });
});

test('one scan whatever the number of row checks', async () => {
  queries.length = 0;
  const [onlyCheck] = (await request(app).get(`${G}/checks?table_fqn=${ORDERS_FQN}`).expect(200)).body;
  await worker(() =>
    request(app)
      .post(`${G}/run`)
      .send({ table_fqn: ORDERS_FQN, check_ids: [onlyCheck.id] })
      .expect(200),
  );
  expect(queries.filter((q) => !q.startsWith('SELECT count(*) AS _lw_rows')).length).toBeLessThanOrEqual(2);
});

test('a segmented run reports per-segment pass rates from one grouped scan', async () => {
  queries.length = 0;
  const res = await worker(
    async () =>
      (
        await request(app)
          .post('/data-quality/segmented-run')
          .send({ table_fqn: ORDERS_FQN, segment_column: 'region' })
          .expect(200)
      ).body,
  );
  expect(queries).toHaveLength(1);
  const by = Object.fromEntries(res.results.map((r: { segment_value: string | null }) => [String(r.segment_value), r]));
  expect(by.eu).toMatchObject({ total_rows: 3, invalid_rows: 1, pass_rate: 66.67 });
  expect(by.us).toMatchObject({ total_rows: 4, invalid_rows: 2, pass_rate: 50 });
  expect(by.apac).toMatchObject({ total_rows: 2, invalid_rows: 0, pass_rate: 100 });
  expect(by.null).toMatchObject({ total_rows: 1, invalid_rows: 1, pass_rate: 0 });
  expect(res).toMatchObject({ segments: 4, other_segments: 0, segment_column: 'region' });
  await request(app)
    .post('/data-quality/segmented-run')
    .send({ table_fqn: ORDERS_FQN, segment_column: 'nope' })
    .expect(422);
});

test('a catalog run checks every table with enabled checks; the dashboard and coverage follow', async () => {
  await request(app)
    .post(`${G}/checks`)
    .send({ table_fqn: 'shop.sales.returns', check_function: 'is_not_null', arguments: { column: 'id' } })
    .expect(201);
  const res = await worker(
    async () => (await request(app).post(`${G}/run`).send({ table_fqn: 'shop.all' }).expect(200)).body,
  );
  expect(res).toMatchObject({ tables_checked: 2, passed: 0, failed: 2 });
  expect(res.results.map((r: { table_fqn: string }) => r.table_fqn)).toEqual([ORDERS_FQN, 'shop.sales.returns']);
  const dash = (await request(app).get(`${G}/dashboard`).expect(200)).body;
  expect(dash).toMatchObject({ tables_run: 2, total_rows: 12, invalid_rows: 5 });
  expect(dash.overall_pass_rate).toBeCloseTo((7 / 12) * 100, 1);
  const cov = (await request(app).get('/api/data-quality/coverage/shop').expect(200)).body;
  expect(cov).toMatchObject({ total_tables: 2, covered: 2, uncovered: 0, coverage_pct: 100 });
});
