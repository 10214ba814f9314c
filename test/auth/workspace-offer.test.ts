import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { createApp } from '../../api/app';
import { startServer } from '../../api/server';
import { createDatabricksWorkspace, type DatabricksWorkspace } from '../../platform/databricks';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Store } from '../../store/db';
import { insertWarehouse } from '../../store/warehouses/repo';
import { testAppDeps } from '../api/deps';
import { RecordingSqlSession } from '../databricks/recording-session';
import { StubServer } from '../databricks/stub-server';
import { createTestStore } from '../helpers/db';

const TOKEN = 'dapi5555666677778888999900001111aaaa';
let store: Store;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(async () => {
  await store?.close();
});

describe('on a Databricks workspace (stub REST server)', () => {
  let stub: StubServer;
  let ws: DatabricksWorkspace;
  beforeAll(async () => {
    stub = await new StubServer()
      .on('GET /api/2.0/sql/warehouses', {
        json: {
          warehouses: [
            { id: 'w1', name: 'etl', cluster_size: 'Small', state: 'RUNNING', warehouse_type: 'PRO' },
            {
              id: 'w2',
              name: 'bi',
              cluster_size: 'Medium',
              state: 'STOPPED',
              warehouse_type: 'PRO',
              enable_serverless_compute: true,
            },
            { id: 'w3', name: 'old', cluster_size: 'X-Small', state: 'STOPPED', warehouse_type: 'CLASSIC' },
          ],
        },
      })
      .on('POST /api/2.0/sql/statements', (req) => {
        const body = JSON.parse(req.body.toString());
        return body.warehouse_id === 'w1'
          ? { json: { statement_id: 's1', status: { state: 'SUCCEEDED' }, result: { data_array: [['1']] } } }
          : { status: 404, json: { error_code: 'RESOURCE_DOES_NOT_EXIST', message: `warehouse ${body.warehouse_id}` } };
      })
      .on('GET /api/2.0/serving-endpoints', {
        json: {
          endpoints: [
            {
              name: 'chat',
              state: { ready: 'READY' },
              config: { served_entities: [{ external_model: { name: 'claude-sonnet-4', provider: 'anthropic' } }] },
            },
            {
              name: 'embed',
              state: { ready: 'READY' },
              config: { served_entities: [{ foundation_model: { name: 'bge-large-en' } }] },
            },
            { name: 'warming', state: { ready: 'NOT_READY' } },
          ],
        },
      })
      .on('GET /api/2.0/genie/spaces', (req) =>
        req.query.page_token
          ? { json: { spaces: [{ space_id: 'g2', title: 'Ops' }] } }
          : {
              json: {
                spaces: [{ space_id: 'g1', title: 'Sales', description: 'orders and revenue' }],
                next_page_token: 'p2',
              },
            },
      )
      .start();
    ws = await createDatabricksWorkspace({
      host: stub.url,
      warehouseId: 'w1',
      auth: { type: 'pat', token: TOKEN },
      sqlSession: new RecordingSqlSession(),
      retry: { baseDelayMs: 5, maxDelayMs: 10, maxAttempts: 1 },
    });
  });
  afterAll(() => stub?.stop());

  const app = () => createApp(testAppDeps({ store, open: async () => ws }));

  test('warehouses, test-warehouse, serving endpoints and Genie spaces answer from the exact REST calls', async () => {
    stub.seen.length = 0;
    const whs = (await request(app()).get('/api/auth/warehouses').expect(200)).body;
    expect(whs.warehouses).toEqual([
      { id: 'w1', name: 'etl', size: 'Small', state: 'RUNNING', type: 'Pro' },
      { id: 'w2', name: 'bi', size: 'Medium', state: 'STOPPED', type: 'Serverless' },
      { id: 'w3', name: 'old', size: 'X-Small', state: 'STOPPED', type: 'Classic' },
    ]);
    const ok = (await request(app()).post('/api/auth/test-warehouse').send({ warehouse_id: 'w1' }).expect(200)).body;
    expect(ok).toEqual({ status: 'success', message: 'warehouse w1 answered SELECT 1', result: 1 });
    const bad = (await request(app()).post('/api/auth/test-warehouse').send({ warehouse_id: 'nope' }).expect(200)).body;
    expect(bad).toMatchObject({ status: 'error', result: null, message: expect.stringMatching(/^warehouse nope: /) });
    const serving = (await request(app()).get('/api/auth/serving-endpoints').expect(200)).body;
    expect(serving).toEqual({
      success: true,
      endpoints: [
        { name: 'chat', state: 'READY', provider: 'anthropic', is_claude: true },
        { name: 'embed', state: 'READY', provider: 'databricks', is_claude: false },
      ],
    });
    const genie = (await request(app()).get('/api/auth/nl-sql-spaces').expect(200)).body;
    expect(genie).toEqual({
      success: true,
      spaces: [
        { space_id: 'g1', title: 'Sales', description: 'orders and revenue' },
        { space_id: 'g2', title: 'Ops', description: null },
      ],
    });

    expect(stub.paths()).toEqual([
      'GET /api/2.0/sql/warehouses',
      'POST /api/2.0/sql/statements',
      'POST /api/2.0/sql/statements',
      'GET /api/2.0/serving-endpoints',
      'GET /api/2.0/genie/spaces',
      'GET /api/2.0/genie/spaces',
    ]);
    expect(JSON.parse(stub.seen[1].body.toString())).toEqual({
      warehouse_id: 'w1',
      statement: 'SELECT 1',
      wait_timeout: '30s',
      on_wait_timeout: 'CANCEL',
      disposition: 'INLINE',
      format: 'JSON_ARRAY',
    });
    expect(stub.seen[5].query).toMatchObject({ page_token: 'p2' });
    for (const r of stub.seen) expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.stringify([whs, ok, bad, serving, genie])).not.toContain(TOKEN);
  });

  test('a failing workspace answers success false with the reason, not a 500', async () => {
    stub.on('GET /api/2.0/serving-endpoints', {
      status: 403,
      json: { error_code: 'PERMISSION_DENIED', message: 'no' },
    });
    const r = (await request(app()).get('/api/auth/serving-endpoints').expect(200)).body;
    expect(r).toMatchObject({ success: false, endpoints: [], reason: expect.stringMatching(/no/) });
  });

  test('a test-warehouse body without warehouse_id is a 400 naming it', async () => {
    const r = await request(app()).post('/api/auth/test-warehouse').send({});
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.error.details)).toContain('warehouse_id');
  });
});

describe('on the local lakehouse', () => {
  let root: string;
  let local: LocalWorkspace;
  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'lw-auth-offer-'));
    local = new LocalWorkspace({ root, user: 'lakeward' });
    await local.createCatalog({ name: 'raw' });
    await local.createSchema({ catalog: 'raw', name: 'landing' });
    await local.createVolume({ ref: { catalog: 'raw', schema: 'landing', name: 'files' } });
    const spec = (name: string) => ({
      name,
      clusterSize: 'X-Small' as const,
      minNumClusters: 1,
      maxNumClusters: 2,
      autoStopMins: 10,
      warehouseType: 'PRO' as const,
      enableServerlessCompute: false,
      enablePhoton: true,
      channel: 'CHANNEL_NAME_CURRENT' as const,
      tags: [],
    });
    await insertWarehouse(store.db, {
      id: 'lw-run',
      location: 'local',
      state: 'RUNNING',
      creatorName: null,
      spec: spec('run'),
    });
    await insertWarehouse(store.db, {
      id: 'lw-off',
      location: 'local',
      state: 'STOPPED',
      creatorName: null,
      spec: spec('off'),
    });
  });
  afterAll(async () => {
    await local?.close();
    rmSync(root, { recursive: true, force: true });
  });
  const app = () => createApp(testAppDeps({ store, open: async () => local }));

  test('warehouses are the default engine and the named pools; SELECT 1 runs on running ones only', async () => {
    const whs = (await request(app()).get('/api/auth/warehouses').expect(200)).body.warehouses;
    expect(whs).toEqual([
      { id: 'default', name: 'default', size: null, state: 'RUNNING', type: null },
      { id: 'lw-off', name: 'off', size: 'X-Small', state: 'STOPPED', type: 'Pro' },
      { id: 'lw-run', name: 'run', size: 'X-Small', state: 'RUNNING', type: 'Pro' },
    ]);
    for (const id of ['default', 'lw-run'])
      expect(
        (await request(app()).post('/api/auth/test-warehouse').send({ warehouse_id: id }).expect(200)).body,
      ).toEqual({ status: 'success', message: `warehouse ${id} answered SELECT 1`, result: 1 });
    const off = (await request(app()).post('/api/auth/test-warehouse').send({ warehouse_id: 'lw-off' }).expect(200))
      .body;
    expect(off).toMatchObject({ status: 'error', message: expect.stringMatching(/STOPPED; start it first/) });
    await request(app()).post('/api/auth/test-warehouse').send({ warehouse_id: 'ghost' }).expect(404);
  });

  test('volumes are listed; serving endpoints and Genie spaces are empty with the reason', async () => {
    expect((await request(app()).get('/api/auth/volumes').expect(200)).body.volumes).toEqual([
      {
        catalog: 'raw',
        schema: 'landing',
        name: 'files',
        full_name: 'raw.landing.files',
        volume_type: 'MANAGED',
        storage_location: expect.any(String),
      },
    ]);
    await request(app()).get('/api/auth/volumes?catalog=missing').expect(404);
    expect((await request(app()).get('/api/auth/serving-endpoints').expect(200)).body).toEqual({
      success: true,
      endpoints: [],
      reason: 'the local lakehouse has no model serving endpoints',
    });
    expect((await request(app()).get('/api/auth/nl-sql-spaces').expect(200)).body).toMatchObject({
      success: true,
      spaces: [],
      reason: expect.stringMatching(/Genie/),
    });
  });

  test('lakeward auth warehouses|test-warehouse|serving-endpoints show what the API answers', async () => {
    const server = await startServer(testAppDeps({ store, open: async () => local }), { host: '127.0.0.1', port: 0 });
    const tsx = path.resolve(__dirname, '../../node_modules/.bin/tsx');
    const cli = async (...args: string[]) =>
      (
        await promisify(execFile)(
          tsx,
          [path.resolve(__dirname, '../../cli/main.ts'), 'auth', ...args, '--url', server.url],
          {
            encoding: 'utf8',
          },
        )
      ).stdout;
    try {
      const api = (await request(app()).get('/api/auth/warehouses').expect(200)).body;
      expect(JSON.parse(await cli('warehouses', '--json'))).toEqual(api);
      expect(await cli('test-warehouse', 'lw-run')).toContain('success: warehouse lw-run answered SELECT 1');
      expect(await cli('serving-endpoints')).toContain('no endpoints (the local lakehouse has no model serving');
      expect(await cli('volumes')).toMatch(/raw\.landing\.files\s+MANAGED/);
    } finally {
      await server.close(500);
    }
  }, 60_000);
});
