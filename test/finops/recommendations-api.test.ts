import { execFile } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import type { Express } from 'express';
import type { AppDeps } from '../../api/deps';
import { startServer } from '../../api/server';
import request from 'supertest';
import { createApp } from '../../api/app';
import { deriveUpTo } from '../../activities/finops/derive';
import { createRecommendationActivities } from '../../activities/finops/recommendations';
import type { Config } from '../../config/load';
import type { Workspace } from '../../platform/port';
import { ROLES, type Role } from '../../schemas/governance';
import { cloneTableState, jobs } from '../../store/schema';
import { insertWarehouse, recordTransition } from '../../store/warehouses/repo';
import { testAppDeps } from '../api/deps';
import { createHarness, eventually, type Harness } from '../helpers/harness';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const KEYS = Object.fromEntries(ROLES.map((r) => [r, `recs-${r}-key-0123456789`])) as Record<Role, string>;
const as = (role: Role) => ({ Authorization: `Bearer ${KEYS[role]}` });
const orders = { catalog: 'prod', schema: 'sales', name: 'orders' };
const events = { catalog: 'prod', schema: 'sales', name: 'events' };
const cloned = { catalog: 'dev', schema: 'sales', name: 'orders_clone' };

let h: Harness;
let ws: Workspace;
let app: Express;
let deps: AppDeps;
let workerConfig: Config;

type Rec = { id: string; type: string; subject: string; status: string; first_seen_at: string; last_seen_at: string };
const list = async (status = 'open'): Promise<Rec[]> =>
  (await request(app).get(`/api/finops/recommendations?status=${status}`).set(as('viewer')).expect(200)).body
    .recommendations;
const byType = (recs: Rec[], type: string) => recs.find((r) => r.type === type)!;

/** Runs the worker (optionally with the refresh's clock moved) while `fn` runs. */
const worker = <T>(fn: () => Promise<T>, clock?: Date) =>
  h.withWorker(fn, {
    deps: { config: workerConfig },
    activities: () =>
      clock
        ? createRecommendationActivities({
            config: workerConfig,
            store: h.store,
            workspaces: { default: async () => ws, open: async () => ws, close: async () => undefined },
            now: () => clock,
          })
        : {},
  });
const refresh = async () => {
  const res = await request(app).post('/finops/recommendations/refresh').set(as('editor')).send({ wait: true });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('completed');
  return res.body.result as { found: number; opened: number; reopened: number };
};

beforeAll(async () => {
  h = await createHarness('recs');
  workerConfig = {
    ...h.config,
    temporal: { ...h.config.temporal, task_queue: h.taskQueue },
    cost: { ...h.config.cost, recommendations: { ...h.config.cost.recommendations, small_file_min_files: 3 } },
  };
  ws = h.open(h.config.workspace.root);
  deps = testAppDeps({
    store: h.store,
    flags: { dataDir: h.config.data_dir },
    env: { LAKEWARD_TASK_QUEUE: h.taskQueue },
    temporal: { client: h.env.client, connection: h.env.connection, address: 'test' },
    open: async () => ws,
  });
  const keys = ROLES.map((role) => ({ name: `${role}-bot`, key: KEYS[role], key_env: null, role }));
  deps.config = { ...deps.config, api_server: { ...deps.config.api_server, keys } };
  app = createApp(deps);

  // Three small files in prod.sales.orders; an orphan file as big as the rest in prod.sales.events.
  for (const c of ['prod', 'dev']) {
    await ws.createCatalog({ name: c });
    await ws.createSchema({ catalog: c, name: 'sales' });
  }
  for (const ref of [orders, events, cloned]) await ws.createTable({ ref, columns: [{ name: 'id', type: 'bigint' }] });
  for (const id of [1, 2, 3]) await ws.insertRows(orders, [{ id }]);
  await ws.insertRows(events, [{ id: 1 }]);
  await ws.insertRows(cloned, [{ id: 1 }]);
  const dir = (await ws.tableDetail(events)).location!;
  writeFileSync(path.join(dir, 'orphan-0000.parquet'), Buffer.alloc(50_000, 7));

  // A deep clone written 40 days ago and never read since.
  const cloneJob = 'clone-20261001-000000-abcd';
  await h.store.db.insert(jobs).values({ jobId: cloneJob, jobType: 'clone', status: 'completed', cloneType: 'DEEP' });
  await h.store.db.insert(cloneTableState).values({
    destWorkspace: ws.id,
    destCatalog: 'dev',
    schemaName: 'sales',
    tableName: 'orders_clone',
    sourceWorkspace: ws.id,
    sourceCatalog: 'prod',
    jobId: cloneJob,
    clonedAt: new Date(Date.now() - 40 * DAY),
  });

  // A Small warehouse that ran an hour with no job on it: all idle, peak concurrency 0.
  await insertWarehouse(h.store.db, {
    id: 'wh-idle',
    location: 'local',
    state: 'STARTING',
    creatorName: null,
    spec: {
      name: 'idle-wh',
      clusterSize: 'Small',
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
  const now = new Date();
  const start = new Date(Math.floor(now.getTime() / HOUR) * HOUR - 3 * HOUR);
  await recordTransition(h.store.db, 'wh-idle', 'RUNNING', 1, null, start);
  await recordTransition(h.store.db, 'wh-idle', 'STOPPED', 0, null, new Date(start.getTime() + HOUR));
  await deriveUpTo(ws, h.store.db, h.config.cost, now, now.getTime());
}, 180_000);
afterAll(async () => {
  await h?.teardown();
});

test('a refresh finds each analyser’s subject; a second refresh gives the same set', async () => {
  const first = await worker(refresh);
  expect(first).toMatchObject({ opened: 5, reopened: 0 });
  const open = await list();
  expect(open.map((r) => `${r.type} ${r.subject}`).sort()).toEqual([
    'idle_warehouse wh-idle',
    'oversized_warehouse wh-idle',
    'small_files prod.sales.orders',
    'unused_clone dev.sales.orders_clone',
    'vacuum prod.sales.events',
  ]);
  const schedule = await h.env.client.schedule.getHandle('finops-recommendations').describe();
  expect(schedule.action).toMatchObject({ workflowType: 'recommendationsRefreshWorkflow' });

  const second = await worker(refresh);
  expect(second).toMatchObject({ found: 5, opened: 0 });
  // The same findings, ids, evidence and first sighting; only last_seen_at moves.
  const strip = (rs: Rec[]) => rs.map(({ last_seen_at: _seen, ...r }) => r);
  expect(strip(await list())).toEqual(strip(open));
});

test('apply is admin only (editors suggest), runs as a job and lands in applied; a dry run changes nothing', async () => {
  const idle = byType(await list(), 'idle_warehouse');
  await request(app).post(`/api/finops/recommendations/${idle.id}/apply`).set(as('editor')).send({}).expect(403);
  const suggested = await request(app)
    .post(`/api/finops/recommendations/${idle.id}/suggest`)
    .set(as('editor'))
    .send({ note: 'nights are idle' })
    .expect(200);
  expect(suggested.body).toMatchObject({ status: 'open', suggested_by: 'editor-bot' });

  const small = byType(await list(), 'small_files');
  const plan = await request(app)
    .post(`/finops/recommendations/${small.id}/apply`)
    .set(as('admin'))
    .send({ dry_run: true })
    .expect(200);
  expect(plan.body).toEqual({
    id: small.id,
    dry_run: true,
    kind: 'optimize',
    would_run: 'OPTIMIZE `prod`.`sales`.`orders`',
  });
  const filesBefore = (await ws.tableDetail(orders)).numFiles;
  expect(filesBefore).toBe(3);

  await worker(async () => {
    for (const rec of [idle, small]) {
      const res = await request(app).post(`/api/finops/recommendations/${rec.id}/apply`).set(as('admin')).send({});
      expect(res.status).toBe(202);
      expect(res.body.job_id).toMatch(/^recommendation_apply-/);
      await eventually(
        async () =>
          (await request(app).get(`/api/finops/recommendations/${rec.id}`).set(as('viewer'))).body.status === 'applied',
        { what: `recommendation ${rec.type} applied`, timeoutMs: 60_000 },
      );
    }
  });
  const applied = (await request(app).get('/api/finops/recommendations/applied').set(as('viewer')).expect(200)).body;
  expect(applied.recommendations.map((r: Rec) => r.type).sort()).toEqual(['idle_warehouse', 'small_files']);
  expect(applied.recommendations[0]).toMatchObject({ applied_by: 'admin-bot' });
  const wh = (await request(app).get('/api/infrastructure/warehouses/wh-idle').set(as('viewer')).expect(200)).body;
  expect(wh.auto_stop_mins).toBe(10);
  expect((await ws.tableDetail(orders)).numFiles).toBe(1);

  const again = await request(app).post(`/api/finops/recommendations/${idle.id}/apply`).set(as('admin')).send({});
  expect(again.status).toBe(409);
  expect(again.body.error.message).toMatch(/is applied; only open ones apply/);
});

test('a drop needs confirm; a failed apply reopens with the error', async () => {
  const unused = byType(await list(), 'unused_clone');
  const refused = await request(app)
    .post(`/api/finops/recommendations/${unused.id}/apply`)
    .set(as('admin'))
    .send({})
    .expect(400);
  expect(refused.body.error.details[0].path).toBe('body.confirm');
  await ws.dropTable(cloned); // gone before the apply runs: DROP TABLE fails
  await worker(async () => {
    await request(app)
      .post(`/api/finops/recommendations/${unused.id}/apply`)
      .set(as('admin'))
      .send({ confirm: true })
      .expect(202);
    await eventually(
      async () => {
        const r = (await request(app).get(`/api/finops/recommendations/${unused.id}`).set(as('viewer'))).body;
        return r.status === 'open' && r.error !== null;
      },
      { what: 'the failed apply reopened', timeoutMs: 60_000 },
    );
  });
  const r = (await request(app).get(`/api/finops/recommendations/${unused.id}`).set(as('viewer'))).body;
  expect(r.error).toMatch(/orders_clone/);
});

test('dismissed and snoozed findings come back after their days if still found', async () => {
  const open = await list();
  const vac = byType(open, 'vacuum');
  const over = byType(open, 'oversized_warehouse');
  await request(app).post(`/api/finops/recommendations/${vac.id}/dismiss`).set(as('editor')).send({}).expect(200);
  const snoozed = await request(app)
    .post(`/api/finops/recommendations/${over.id}/snooze`)
    .set(as('editor'))
    .send({ days: 3 })
    .expect(200);
  expect(snoozed.body.status).toBe('snoozed');
  await request(app).post(`/api/finops/recommendations/${over.id}/snooze`).set(as('editor')).send({}).expect(400);
  expect((await list()).map((r) => r.id)).not.toEqual(expect.arrayContaining([vac.id]));
  expect((await list()).map((r) => r.id)).not.toEqual(expect.arrayContaining([over.id]));

  await worker(refresh, new Date(Date.now() + 2 * DAY));
  expect((await list('snoozed')).map((r) => r.id)).toEqual([over.id]);
  await worker(refresh, new Date(Date.now() + 4 * DAY));
  expect((await list()).map((r) => r.id)).toEqual(expect.arrayContaining([over.id]));
  expect((await list('dismissed')).map((r) => r.id)).toEqual([vac.id]);
  await worker(refresh, new Date(Date.now() + 31 * DAY));
  expect((await list()).map((r) => r.id)).toEqual(expect.arrayContaining([vac.id, over.id]));
  expect(readdirSync((await ws.tableDetail(events)).location!)).toContain('orphan-0000.parquet');
});

test('lakeward finops recommendations list --json shows what the API does; apply --dry-run prints what would run', async () => {
  const server = await startServer(deps, { host: '127.0.0.1', port: 0 });
  const tsx = path.resolve(__dirname, '../../node_modules/.bin/tsx');
  const cli = async (...args: string[]) =>
    (
      await promisify(execFile)(
        tsx,
        [path.resolve(__dirname, '../../cli/main.ts'), ...args, '--url', server.url, '--api-key', KEYS.admin],
        { encoding: 'utf8' },
      )
    ).stdout;
  try {
    const api = (await request(app).get('/api/finops/recommendations?status=all').set(as('viewer')).expect(200)).body;
    expect(JSON.parse(await cli('finops', 'recommendations', 'list', '--status', 'all', '--json'))).toEqual(api);
    const vac = byType(await list(), 'vacuum');
    expect(await cli('recommendations', 'apply', vac.id, '--dry-run')).toContain(
      'would run: VACUUM `prod`.`sales`.`events`',
    );
    expect(await cli('recommendations', 'list', '--type', 'vacuum')).toMatch(/vacuum\s+prod\.sales\.events/);
  } finally {
    await server.close(500);
  }
}, 60_000);
