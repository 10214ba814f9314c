import request from 'supertest';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { createDatabricksWorkspace, type DatabricksWorkspace } from '../../platform/databricks';
import { testAppDeps } from '../api/deps';
import { RecordingSqlSession } from '../databricks/recording-session';
import { StubServer } from '../databricks/stub-server';
import { createHarness, eventually, type Harness } from '../helpers/harness';

const TOKEN = 'dapi1234123412341234123412341234abcd';
let h: Harness;
let stub: StubServer;
let ws: DatabricksWorkspace;
let deps: AppDeps;

beforeAll(async () => {
  h = await createHarness('dbx-wh-create');
  stub = await new StubServer()
    .on('POST /api/2.0/sql/warehouses', (req) =>
      JSON.parse(req.body.toString()).name === 'refused'
        ? { status: 400, json: { error_code: 'INVALID_PARAMETER_VALUE', message: 'cluster_size not allowed here' } }
        : { json: { id: 'dbx0000000000001' } },
    )
    .on('POST /api/2.0/sql/warehouses/dbx0000000000001/start', { json: {} })
    .on('GET /api/2.0/sql/warehouses/dbx0000000000001', {
      json: { id: 'dbx0000000000001', state: 'RUNNING', min_num_clusters: 1 },
    })
    .start();
  ws = await createDatabricksWorkspace({
    host: stub.url,
    warehouseId: 'dbx0000000000001',
    auth: { type: 'pat', token: TOKEN },
    sqlSession: new RecordingSqlSession(),
    retry: { baseDelayMs: 5, maxDelayMs: 10, maxAttempts: 1 },
  });
  deps = testAppDeps({
    store: h.store,
    flags: { dataDir: h.config.data_dir },
    env: { LAKEWARD_TASK_QUEUE: h.taskQueue },
    temporal: { client: h.env.client, connection: h.env.connection, address: 'test' },
    open: async () => ws,
  });
  deps.config = { ...deps.config, workspace: { ...deps.config.workspace, kind: 'databricks', host: stub.url } };
}, 120_000);
afterAll(async () => {
  await stub?.stop();
  await h?.teardown();
});

test('POST /infrastructure/warehouses on Databricks creates it there (its id), then the workflow waits for RUNNING', async () => {
  const app = createApp(deps);
  const created = await request(app)
    .post('/infrastructure/warehouses')
    .send({ name: 'etl', cluster_size: 'Small', max_num_clusters: 2, auto_stop_mins: 15 })
    .expect(201);
  expect(created.body).toMatchObject({ id: 'dbx0000000000001', name: 'etl', state: 'STARTING', type: 'Pro' });
  expect(stub.paths()[0]).toBe('POST /api/2.0/sql/warehouses');
  expect(JSON.parse(stub.seen[0].body.toString())).toEqual({
    name: 'etl',
    cluster_size: 'Small',
    min_num_clusters: 1,
    max_num_clusters: 2,
    auto_stop_mins: 15,
    warehouse_type: 'PRO',
    enable_serverless_compute: false,
    enable_photon: true,
    channel: { name: 'CHANNEL_NAME_CURRENT' },
    tags: { custom_tags: [] },
  });
  expect(stub.seen[0].headers.authorization).toBe(`Bearer ${TOKEN}`);

  await h.withWorker(
    async () =>
      eventually(
        async () =>
          (await request(app).get('/api/infrastructure/warehouses/dbx0000000000001').expect(200)).body.state ===
          'RUNNING',
        { what: 'the Databricks warehouse RUNNING', timeoutMs: 60_000 },
      ),
    {
      deps: {
        config: { ...h.config, temporal: { ...h.config.temporal, task_queue: h.taskQueue } },
        workspaces: { default: async () => ws, open: async () => ws, close: async () => undefined },
      },
    },
  );
  expect(stub.paths().slice(1, 3)).toEqual([
    'POST /api/2.0/sql/warehouses/dbx0000000000001/start',
    'GET /api/2.0/sql/warehouses/dbx0000000000001',
  ]);
  const events = (await request(app).get('/infrastructure/warehouses/dbx0000000000001/events').expect(200)).body;
  expect(JSON.stringify(events)).toMatch(/STARTING[\s\S]*RUNNING/);
  expect(JSON.stringify(created.body)).not.toContain(TOKEN);
});

test('a body Databricks refuses is a 422 with its message, and no warehouse is recorded', async () => {
  const app = createApp(deps);
  const res = await request(app)
    .post('/api/infrastructure/warehouses')
    .send({ name: 'refused', cluster_size: 'Small' })
    .expect(422);
  expect(res.body.error.message).toMatch(/cluster_size not allowed here/);
  const list = (await request(app).get('/api/infrastructure/warehouses').expect(200)).body.warehouses;
  expect(list.map((w: { name: string }) => w.name)).not.toContain('refused');
});
