import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApp } from '../../api/app';
import { evaluateBudgets } from '../../activities/finops/budgets';
import { deriveUpTo } from '../../activities/finops/derive';
import {
  budgetStatus,
  jobCostDays,
  monthPeriod,
  webhookProblem,
  type CostLine,
} from '../../activities/finops/logic/budgets';
import { DBU_PER_HOUR } from '../../activities/warehouses/logic/sizes';
import { recordJobSpans } from '../../store/finops/repo';
import { insertWarehouse, recordTransition } from '../../store/warehouses/repo';
import { createHarness, type Harness } from '../helpers/harness';
import { testAppDeps } from '../api/deps';

const HOUR = 3_600_000;
const prices = { dbu_price_usd: { Pro: 0.55, Serverless: 0.7, Classic: 0.22 }, price_per_gb: 0.023 };

describe('budget logic', () => {
  const now = new Date('2026-11-16T00:00:00Z'); // half of November (30 days) gone
  const line = (o: Partial<CostLine>): CostLine => ({
    usage_date: '2026-11-10',
    sku_name: 'ENTERPRISE_SQL_PRO_COMPUTE',
    warehouse_id: 'a',
    job_id: null,
    job_type: null,
    cost: 0,
    ...o,
  });
  const lines = [
    line({ cost: 10 }), // idle compute
    line({ cost: 20, job_id: 'clone-1', job_type: 'clone' }),
    line({ cost: 5, sku_name: 'STORAGE', warehouse_id: null }),
    line({ cost: 100, usage_date: '2026-10-31' }), // last month: not counted
    line({ cost: 7, warehouse_id: 'b' }),
  ];
  const spec = (category: string, amountUsd = 100, scope = null as { warehouse_id?: string } | null) => ({
    category,
    amountUsd,
    alertThresholdPct: 80,
    scope,
  });

  test('categories, scope, run-rate forecast and state', () => {
    expect(budgetStatus(lines, spec('total'), now)).toMatchObject({ period: '2026-11', actual_usd: 42 });
    expect(budgetStatus(lines, spec('compute'), now).actual_usd).toBe(37);
    expect(budgetStatus(lines, spec('platform'), now).actual_usd).toBe(20);
    expect(budgetStatus(lines, spec('storage'), now).actual_usd).toBe(5);
    expect(budgetStatus(lines, spec('compute', 100, { warehouse_id: 'a' }), now).actual_usd).toBe(30);
    // 42 in 15 of 30 days → 84 by month end
    expect(budgetStatus(lines, spec('total'), now)).toMatchObject({ forecast_usd: 84, state: 'ok', levels: [] });
    expect(budgetStatus(lines, spec('total', 50), now)).toMatchObject({
      utilization_pct: 84,
      state: 'warning',
      levels: ['threshold'],
    });
    expect(budgetStatus(lines, spec('total', 42), now)).toMatchObject({
      state: 'over',
      levels: ['threshold', 'exceeded'],
    });
    expect(monthPeriod(new Date('2026-12-31T23:59:59Z')).end.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  test('platform counts the job-costs view when it can be read, else the usage lines with a job id', () => {
    const jobs = [
      { job_id: 'clone-1', job_type: 'clone', warehouse_id: 'a', cost: 12 },
      { job_id: 'dq-1', job_type: 'dq', warehouse_id: 'b', cost: 3 },
    ];
    expect(budgetStatus(lines, spec('platform'), now, jobs).actual_usd).toBe(15);
    expect(budgetStatus(lines, spec('platform', 100, { warehouse_id: 'b' }), now, jobs).actual_usd).toBe(3);
    expect(budgetStatus(lines, spec('platform'), now, null).actual_usd).toBe(20);
    expect(budgetStatus(lines, spec('compute'), now, jobs).actual_usd).toBe(37);
    // the view's window starts on the 1st: 15 days back from the 16th, 0 on the 1st itself
    expect(jobCostDays(monthPeriod(now), now)).toBe(15);
    const first = new Date('2026-12-01T00:00:00.500Z');
    expect(jobCostDays(monthPeriod(first), first)).toBe(0);
  });

  test('webhooks are https, plain http only to this machine', () => {
    expect(webhookProblem('https://hooks.example.com/x')).toBeNull();
    expect(webhookProblem('http://127.0.0.1:9/x')).toBeNull();
    expect(webhookProblem('http://hooks.example.com/x')).toMatch(/https/);
    expect(webhookProblem('nope')).toMatch(/URL/);
  });
});

describe('budgets over the usage ledger', () => {
  let h: Harness;
  let hook: http.Server;
  const received: { id: string; body: Record<string, unknown> }[] = [];
  let hookUrl: string;
  let cost: number;
  // One fixed instant (the 28th, 12:00 UTC) for the API and the evaluation: the facts, the month they count in and
  // every read agree however close to a month's start or end the test runs. The views' windows are counted back
  // from the real current date, at most a day past this month, so they always reach the facts.
  const real = new Date();
  const fixed = new Date(monthPeriod(real).start.getTime() + 27 * 24 * HOUR + 12 * HOUR);
  const clock = () => fixed;
  const makeApp = () =>
    createApp({
      ...testAppDeps({
        store: h.store,
        flags: { dataDir: h.config.data_dir },
        env: { LAKEWARD_TASK_QUEUE: h.taskQueue },
        temporal: { client: h.env.client, connection: h.env.connection, address: 'test' },
        open: async (spec) => h.open((spec as { root: string }).root),
      }),
      now: clock,
    });

  beforeAll(async () => {
    h = await createHarness('budgets');
    hook = http.createServer((req, res) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        received.push({ id: String(req.headers['x-lakeward-event-id']), body: JSON.parse(data) });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;

    // Ledger facts: a 2X-Small Pro warehouse ran for one hour this month, ending two hours before the clock.
    const now = clock();
    const start = new Date(now.getTime() - 3 * HOUR);
    const end = new Date(now.getTime() - 2 * HOUR);
    await insertWarehouse(h.store.db, {
      id: 'wh-budget',
      location: 'local',
      state: 'STARTING',
      creatorName: null,
      spec: {
        name: 'budget-wh',
        clusterSize: '2X-Small',
        minNumClusters: 1,
        maxNumClusters: 1,
        autoStopMins: 120,
        warehouseType: 'PRO',
        enableServerlessCompute: false,
        enablePhoton: true,
        channel: 'CHANNEL_NAME_CURRENT',
        tags: [],
      },
    });
    await recordTransition(h.store.db, 'wh-budget', 'RUNNING', 1, null, start);
    await recordTransition(h.store.db, 'wh-budget', 'STOPPED', 0, null, end);
    // a clone ran its statements on it for the middle 30 minutes of that hour
    await recordJobSpans(h.store.db, [
      {
        spanKey: 'clone-20261124-101500-b0/1/1',
        jobId: 'clone-20261124-101500-b0',
        jobType: 'clone',
        warehouseId: 'wh-budget',
        startedAt: new Date(start.getTime() + HOUR / 4),
        endedAt: new Date(start.getTime() + (3 * HOUR) / 4),
        busyMs: HOUR / 2,
        runAs: null,
      },
    ]);
    await deriveUpTo(h.open(h.config.workspace.root), h.store.db, prices, now, now.getTime());
    // independent of the ledger's SQL: uptime × DBU/h × price
    cost = ((end.getTime() - start.getTime()) / HOUR) * DBU_PER_HOUR['2X-Small'] * 0.55;
  }, 120_000);
  afterAll(async () => {
    hook?.close();
    await h?.teardown();
  });

  const worker = <T>(fn: () => Promise<T>) =>
    h.withWorker(fn, {
      deps: { config: { ...h.config, temporal: { ...h.config.temporal, task_queue: h.taskQueue } } },
      // the Schedule's activity, on the same clock as the API
      activities: () => ({ evaluateBudgets: () => evaluateBudgets(h.store, h.open(h.config.workspace.root), clock()) }),
    });

  test('bad fields are refused naming the field; unknown ids are 404', async () => {
    const app = makeApp();
    const bad = await request(app).post('/api/finops/budgets').send({ name: 'x', category: 'compute', amount_usd: 0 });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(bad.body)).toContain('amount_usd');
    const hookBad = await request(app)
      .post('/finops/budgets')
      .send({ name: 'x', category: 'compute', amount_usd: 5, webhook_url: 'http://hooks.example.com/x' })
      .expect(422);
    expect(hookBad.body.error.details[0].path).toBe('body.webhook_url');
    await request(app).get('/api/finops/budgets/00000000-0000-4000-8000-000000000000').expect(404);
  });

  test('a platform budget counts the cost of Lakeward’s jobs from the job-costs view', async () => {
    const app = makeApp();
    const b = (
      await request(app)
        .post('/api/finops/budgets')
        .send({ name: 'jobs', category: 'platform', amount_usd: 100, scope: { job_type: 'clone' } })
        .expect(201)
    ).body;
    // the clone alone on the warehouse for half of its hour: half the hour's cost
    expect(b.actual_usd).toBeCloseTo(cost / 2, 5);
    const other = await request(app)
      .patch(`/api/finops/budgets/${b.id}`)
      .send({ scope: { job_type: 'dq' } })
      .expect(200);
    expect(other.body.actual_usd).toBe(0);
    await request(app).delete(`/api/finops/budgets/${b.id}`).expect(200);
  });

  test('crossing 80% then 100%, evaluated repeatedly, alerts exactly twice; budgets survive a restart', async () => {
    const app = makeApp();
    const created = await request(app)
      .post('/api/finops/budgets')
      .send({ name: 'compute', category: 'compute', amount_usd: cost / 0.85, webhook_url: hookUrl })
      .expect(201);
    const id: string = created.body.id;
    expect(created.body).toMatchObject({ alert_threshold_pct: 80, period: 'monthly', cost_available: true });
    expect(created.body.actual_usd).toBeCloseTo(cost, 5);
    expect(created.body.utilization_pct).toBeCloseTo(85, 1);
    expect(created.body.state).toBe('warning');
    const schedule = await h.env.client.schedule.getHandle('finops-budgets').describe();
    expect(schedule.action).toMatchObject({ workflowType: 'budgetEvaluationWorkflow' });

    await worker(async () => {
      const first = (await request(app).post('/api/finops/budgets/evaluate').expect(200)).body;
      expect(first).toMatchObject({ alerts_raised: 1, webhooks_sent: 1 });
      await request(app).post('/finops/budgets/evaluate').expect(200);
      expect(received.map((r) => r.body.level)).toEqual(['threshold']);

      await request(app)
        .patch(`/api/finops/budgets/${id}`)
        .send({ amount_usd: cost / 1.1 })
        .expect(200);
      for (let i = 0; i < 3; i++) await request(app).post('/api/finops/budgets/evaluate').expect(200);
    });
    expect(received.map((r) => r.body.level)).toEqual(['threshold', 'exceeded']);
    expect(received[1]).toMatchObject({ id: `${id}/${monthPeriod(fixed).period}/exceeded` });
    const notes = (await request(app).get('/api/notifications?peek=true&limit=200').expect(200)).body.items;
    expect(notes.filter((n: { type: string }) => n.type === 'budget_alert')).toHaveLength(2);

    // a new app over the same store: the budget, its state and its alert history are there
    const again = (await request(makeApp()).get(`/finops/budgets/${id}`).expect(200)).body;
    expect(again).toMatchObject({ id, name: 'compute', category: 'compute', state: 'over', webhook_url: hookUrl });
    expect(again.amount_usd).toBeCloseTo(cost / 1.1, 9);
    expect(again.alerts.map((a: { level: string }) => a.level)).toEqual(['threshold', 'exceeded']);
    const list = (await request(makeApp()).get('/api/finops/budgets').expect(200)).body.budgets;
    expect(list.map((b: { id: string }) => b.id)).toEqual([id]);

    await request(app).delete(`/api/finops/budgets/${id}`).expect(200);
    await request(app).get(`/api/finops/budgets/${id}`).expect(404);
  });
});
