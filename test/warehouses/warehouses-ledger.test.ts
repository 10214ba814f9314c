import { spawnSync } from 'node:child_process';
import path from 'node:path';
import request from 'supertest';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import { createApp } from '../../api/app';
import { startServer } from '../../api/server';
import { deriveUpTo } from '../../activities/finops/derive';
import { snapshotStorage } from '../../activities/finops/storage-snapshot';
import { viewSql, BILLING_VIEWS, type BillingView } from '../../activities/finops/logic/views';
import { DBU_PER_HOUR } from '../../activities/warehouses/logic/sizes';
import { listJobSpans } from '../../store/finops/repo';
import { createJob } from '../../store/jobs/jobs';
import { listWarehouseEvents } from '../../store/warehouses/repo';
import type { Workspace } from '../../platform/port';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { testAppDeps } from '../api/deps';

const run = promisify(execFile);
const tsx = path.resolve(__dirname, '../../node_modules/.bin/tsx');
let h: Harness;
let app: ReturnType<typeof createApp>;
let appDeps: ReturnType<typeof testAppDeps>;
let ws: Workspace;
const prices = { dbu_price_usd: { Pro: 0.55, Serverless: 0.7, Classic: 0.22 }, price_per_gb: 0.023 };

beforeAll(async () => {
  h = await createHarness('warehouses');
  const deps = (appDeps = testAppDeps({
    store: h.store,
    flags: { dataDir: h.config.data_dir },
    env: { LAKEWARD_TASK_QUEUE: h.taskQueue },
    temporal: { client: h.env.client, connection: h.env.connection, address: 'test' },
    open: async (spec) => h.open((spec as { root: string }).root),
  }));
  app = createApp(deps);
  ws = h.open(h.config.workspace.root);
  await ws.createCatalog({ name: 'prod' });
  await ws.createSchema({ catalog: 'prod', name: 'sales' });
  for (const name of ['orders', 'items']) {
    const ref = { catalog: 'prod', schema: 'sales', name };
    await ws.createTable({ ref, columns: [{ name: 'id', type: 'bigint' }] });
    await ws.insertRows(
      ref,
      Array.from({ length: 20 }, (_, i) => ({ id: i })),
    );
  }
}, 120_000);
afterAll(async () => h?.teardown());

const worker = <T>(fn: () => Promise<T>) =>
  h.withWorker(fn, { deps: { config: { ...h.config, temporal: { ...h.config.temporal, task_queue: h.taskQueue } } } });

const stateOf = async (id: string) => {
  const res = await request(app).get(`/api/infrastructure/warehouses/${id}`);
  return res.body.state ?? res.body;
};

test('bad fields are refused with 422 naming each; unknown ids are 404', async () => {
  const res = await request(app)
    .post('/infrastructure/warehouses')
    .send({ name: 'bad', cluster_size: 'Huge', min_num_clusters: 3, max_num_clusters: 2, auto_stop_mins: 5 })
    .expect(422);
  const paths = res.body.error.details.map((d: { path: string }) => d.path);
  expect(paths).toEqual(expect.arrayContaining(['body.cluster_size', 'body.max_num_clusters', 'body.auto_stop_mins']));
  await request(app).post('/api/infrastructure/warehouses/nope/start').expect(404);
  await request(app).post('/api/warehouse/stop').send({ warehouse_id: 'nope' }).expect(404);
});

test('a clone on a named warehouse is billed by the ledger: job DBUs from busy seconds, idle the rest', async () => {
  await worker(async () => {
    const created = await request(app)
      .post('/api/infrastructure/warehouses')
      .send({ name: 'etl', cluster_size: '2X-Small', max_num_clusters: 2 })
      .expect(201);
    const id: string = created.body.id;
    expect(created.body).toMatchObject({ auto_stop_mins: 120, type: 'Pro', state: 'STARTING' });
    // the hourly Schedule that derives the ledger exists once a warehouse does
    const schedule = await h.env.client.schedule.getHandle('finops-usage-ledger').describe();
    expect(schedule.action).toMatchObject({ workflowType: 'usageLedgerWorkflow' });
    await eventually(async () => (await stateOf(id)) === 'RUNNING', { what: 'warehouse RUNNING', timeoutMs: 60_000 });

    // stop, then start: every transition an event row, in order; repeats are no-ops
    await request(app).post(`/api/infrastructure/warehouses/${id}/stop`).expect(202);
    await eventually(async () => (await stateOf(id)) === 'STOPPED', { what: 'warehouse STOPPED', timeoutMs: 60_000 });
    const again = await request(app).post(`/infrastructure/warehouses/${id}/stop`).expect(202);
    expect(again.body.accepted).toBe(false);
    await request(app).post('/api/warehouse/start').send({ warehouse_id: id }).expect(202);
    await eventually(async () => (await stateOf(id)) === 'RUNNING', {
      what: 'warehouse RUNNING again',
      timeoutMs: 60_000,
    });
    const events = (await request(app).get(`/api/infrastructure/warehouses/${id}/events`).expect(200)).body.events;
    expect(events.map((e: { event_type: string }) => e.event_type)).toEqual([
      'STARTING',
      'RUNNING',
      'STOPPING',
      'STOPPED',
      'STARTING',
      'RUNNING',
    ]);

    // a clone naming the warehouse runs its SQL on its pool; a STOPPED one would be started first
    const input = h.jobInput(h.config.workspace.root, { clone_type: 'DEEP' });
    input.source = { kind: 'local', root: h.config.workspace.root, warehouseId: id };
    input.targets[0].workspace = input.source;
    const summary = await h.run(input);
    expect(summary.tables_cloned).toBe(2);
    await request(app).post(`/api/infrastructure/warehouses/${id}/stop`).expect(202);
    await eventually(async () => (await stateOf(id)) === 'STOPPED', {
      what: 'warehouse STOPPED at end',
      timeoutMs: 60_000,
    });

    // the ledger, checked against an independent computation from the facts
    const all = await listJobSpans(h.store.db);
    const spans = all.filter((s) => s.jobId === input.jobId);
    expect({ n: spans.length > 0, all: all.map((s) => s.spanKey) }).toMatchObject({ n: true });
    const rate = DBU_PER_HOUR['2X-Small'];
    const busySeconds = unionMs(spans.map((s) => [s.startedAt.getTime(), s.endedAt.getTime()])) / 1000;
    const evs = await listWarehouseEvents(h.store.db, id);
    let uptimeMs = 0;
    for (let i = 0; i < evs.length; i++)
      if (evs[i].eventType === 'RUNNING') uptimeMs += evs[i + 1].eventTime.getTime() - evs[i].eventTime.getTime();

    await createJob(h.store.db, { jobId: input.jobId, jobType: 'clone', status: 'completed', user: 'ana@example.com' });
    const now = new Date();
    expect(await snapshotStorage(ws, h.store.db, now)).toBeGreaterThanOrEqual(4); // prod and the clone's tables
    expect(await snapshotStorage(ws, h.store.db, now)).toBe(0); // once a day
    const added = await deriveUpTo(ws, h.store.db, prices, now, now.getTime());
    expect(added.usage).toBeGreaterThan(0);
    const usage = await ws.query(
      `SELECT record_id, usage_metadata.job_id AS job_id, CAST(usage_quantity AS DOUBLE) AS q FROM system.billing.usage WHERE usage_metadata.warehouse_id = '${id}' ORDER BY record_id`,
    );
    const jobDbus = usage.rows.filter((r) => r.job_id === input.jobId).reduce((a, r) => a + Number(r.q), 0);
    const allDbus = usage.rows.reduce((a, r) => a + Number(r.q), 0);
    expect(jobDbus).toBeCloseTo((busySeconds * rate) / 3600, 5);
    expect(allDbus).toBeCloseTo((uptimeMs / 1000 / 3600) * rate, 5);
    expect(usage.rows.some((r) => r.job_id === null)).toBe(true); // idle rows

    // deriving again adds nothing; a dropped usage table comes back identical
    expect(await deriveUpTo(ws, h.store.db, prices, now, now.getTime())).toEqual({
      usage: 0,
      list_prices: 0,
      warehouses: 0,
      warehouse_events: 0,
      query_history: 0,
    });
    await ws.dropTable({ catalog: 'system', schema: 'billing', name: 'usage' });
    await deriveUpTo(ws, h.store.db, prices, now, now.getTime());
    const again2 = await ws.query(
      `SELECT record_id, usage_metadata.job_id AS job_id, CAST(usage_quantity AS DOUBLE) AS q FROM system.billing.usage WHERE usage_metadata.warehouse_id = '${id}' ORDER BY record_id`,
    );
    expect(again2.rows).toEqual(usage.rows);

    // delta-rs opens the derived table
    const py = path.join(__dirname, '../../.venv/bin/python');
    const out = spawnSync(py, ['-c', DELTA_RS, h.config.workspace.root], { encoding: 'utf8' });
    expect(out.stderr).toBe('');
    const total = await ws.query('SELECT COUNT(*) AS n FROM system.billing.usage');
    expect(Number(out.stdout.trim())).toBe(Number(total.rows[0].n));

    // billing answers from the same rows: the job's DBUs and cost at the Pro price
    const billing = (await request(app).get('/api/finops/billing?days=30').expect(200)).body;
    expect(billing.available).toBe(true);
    const job = billing.by_job.find((j: { job_id: string }) => j.job_id === input.jobId);
    expect(job).toMatchObject({ job_type: 'clone', warehouse_id: id });
    expect(job.dbus).toBeCloseTo(jobDbus, 5);
    expect(job.cost).toBeCloseTo(jobDbus * 0.55, 5);
    // by_job comes from the job-costs view: the clone's tagged statements in system.query.history, one per span
    expect(billing.by_job_source).toBe('query_history');
    const statements = await ws.query(
      `SELECT statement_text FROM system.query.history WHERE compute.warehouse_id = '${id}'`,
    );
    expect(statements.rows.length).toBe(spans.length);
    for (const r of statements.rows)
      expect(String(r.statement_text)).toMatch(new RegExp(`^/\\* lakeward job_id=${input.jobId} job_type=clone \\*/`));
    const ana = billing.by_user.find((u: { user: string }) => u.user === 'ana@example.com');
    expect(ana.dbus).toBeCloseTo(jobDbus, 5);
    const storage = (await request(app).get('/api/finops/storage').expect(200)).body;
    const orders = storage.rows.find((r: { table_name: string }) => r.table_name === 'prod.sales.orders');
    const bytes = (await ws.storageMetrics({ catalog: 'prod', schema: 'sales', name: 'orders' })).totalBytes;
    const days = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
    expect(orders.gb_months).toBeCloseTo(bytes / 2 ** 30 / days, 6);
    expect(orders.cost).toBeCloseTo((bytes / 2 ** 30 / days) * 0.023, 6);
    for (const view of Object.keys(BILLING_VIEWS) as BillingView[]) {
      const res = await ws.query(viewSql(view, 30));
      expect(Array.isArray(res.rows)).toBe(true);
    }
  });
}, 180_000);

test('a job naming an unknown warehouse fails at once, without a retry', async () => {
  await worker(async () => {
    const input = h.jobInput(h.config.workspace.root, { clone_type: 'DEEP', enable_retry: true });
    input.source = { kind: 'local', root: h.config.workspace.root, warehouseId: 'no-such-warehouse' };
    input.targets[0].workspace = input.source;
    const err = await h.run(input).then(
      () => null,
      (e: unknown) => e,
    );
    // WorkflowFailedError → ActivityFailure → ApplicationFailure(InvalidWarehouse, non-retryable) on attempt 1
    type Link = { cause?: unknown; type?: string; nonRetryable?: boolean; message?: string; retryState?: string };
    const chain: Link[] = [];
    for (let e = err as Link | null; e; e = e.cause as Link | null) chain.push(e);
    const app = chain.find((e) => e.type === 'InvalidWarehouse');
    expect(app).toMatchObject({ nonRetryable: true });
    expect(app?.message).toMatch(/no-such-warehouse/);
    expect(chain.some((e) => e.retryState === 'NON_RETRYABLE_FAILURE')).toBe(true);
  });
}, 120_000);

test('lakeward warehouses and cost commands show the same figures (--json and text)', async () => {
  const server = await startServer(appDeps, { host: '127.0.0.1', port: 0 });
  const cli = async (...args: string[]) =>
    (
      await run(tsx, [path.resolve(__dirname, '../../cli/main.ts'), ...args, '--url', server.url], {
        encoding: 'utf8',
      })
    ).stdout;
  try {
    const list = JSON.parse(await cli('warehouses', 'list', '--json'));
    expect(list.map((w: { name: string }) => w.name)).toContain('etl');
    const billing = JSON.parse(await cli('cost', 'billing', '--json'));
    const api = (await request(app).get('/api/finops/billing?days=30')).body;
    expect(billing).toEqual(api);
    expect(await cli('cost', 'jobs')).toMatch(/clone-\d{8}/);
  } finally {
    await server.close(500);
  }
}, 120_000);

function unionMs(intervals: number[][]): number {
  let total = 0;
  let reach = -Infinity;
  for (const [a, b] of [...intervals].sort((x, y) => x[0] - y[0])) {
    const from = Math.max(a, reach);
    if (b > from) total += b - from;
    reach = Math.max(reach, b);
  }
  return total;
}

const DELTA_RS = `
import sys, glob, os
from deltalake import DeltaTable
root = sys.argv[1]
logs = [p for p in glob.glob(os.path.join(root, '**', '_delta_log'), recursive=True) if os.sep + 'system' in p and 'usage' in p]
print(sum(DeltaTable(os.path.dirname(l)).to_pyarrow_table().num_rows for l in logs), flush=True)
# Skip interpreter teardown: Arrow's thread pool can abort there ("terminate called without an active exception").
os._exit(0)
`;
