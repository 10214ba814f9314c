import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { startServer } from '../../api/server';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Store } from '../../store/db';
import { attach } from '../../store/contracts/repo';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

let root: string;
let ws: LocalWorkspace;
let store: Store;
let app: Express;
const orders = { catalog: 'shop', schema: 'sales', name: 'orders' };

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-tables-'));
  ws = new LocalWorkspace({ root, user: 'lakeward' });
  await ws.createCatalog({ name: 'shop' });
  await ws.createSchema({ catalog: 'shop', name: 'sales' });
  await ws.createTable({
    ref: orders,
    columns: [
      { name: 'id', type: 'bigint', nullable: false, comment: 'order id' },
      { name: 'region', type: 'string' },
      { name: 'amount', type: 'decimal(10,2)' },
    ],
    partitionColumns: ['region'],
    comment: 'one row per order',
    properties: { team: 'sales' },
  });
  await ws.insertRows(orders, [
    { id: 1, region: 'eu', amount: 10.5 },
    { id: 2, region: 'us', amount: 3 },
  ]);
  await ws.createView({
    ref: { ...orders, name: 'eu_orders' },
    definition: "SELECT * FROM shop.sales.orders WHERE region = 'eu'",
  });
  store = await createTestStore();
  app = createApp(testAppDeps({ store, open: async () => ws }));
});
afterAll(async () => {
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

test('a table answers with its columns, details and history (newest first)', async () => {
  const res = await request(app).get('/api/tables/shop.sales.orders').expect(200);
  expect(res.body).toMatchObject({
    full_name: 'shop.sales.orders',
    table_type: 'MANAGED',
    comment: 'one row per order',
    partition_columns: ['region'],
    properties: expect.objectContaining({ team: 'sales' }),
    version: 1,
  });
  expect(res.body.columns).toEqual([
    { name: 'id', type: 'bigint', nullable: false, comment: 'order id', position: 1, partition: false },
    { name: 'region', type: 'string', nullable: true, comment: null, position: 2, partition: true },
    { name: 'amount', type: 'decimal(10,2)', nullable: true, comment: null, position: 3, partition: false },
  ]);
  expect(res.body.history.map((h: { version: number }) => h.version)).toEqual([1, 0]);
  expect(res.body.history[0].operation).toBe('WRITE');
  expect(res.body.num_files).toBeGreaterThan(0);
  const one = await request(app).get('/api/tables/shop.sales.orders?history_limit=1').expect(200);
  expect(one.body.history).toHaveLength(1);
});

test('links: lineage always, quality with the table’s check counts, attached contracts by name', async () => {
  const bare = await request(app).get('/api/tables/shop.sales.orders').expect(200);
  expect(bare.body.links).toEqual({
    lineage: { method: 'POST', path: '/api/lineage', body: { table: 'shop.sales.orders' } },
    quality: null,
    contracts: [],
  });
  await request(app)
    .post('/api/governance/dqx/checks')
    .send({ table_fqn: 'shop.sales.orders', check_function: 'is_not_null', for_each_column: ['id', 'amount'] })
    .expect(201);
  await attach(store.db, 'orders_contract', 'shop.sales.orders', 'test');
  const linked = await request(app).get('/api/tables/shop.sales.orders').expect(200);
  expect(linked.body.links.quality).toEqual({
    method: 'GET',
    path: '/api/governance/dqx/checks?table_fqn=shop.sales.orders',
    checks: 2,
    enabled_checks: 2,
  });
  expect(linked.body.links.contracts).toEqual([
    { method: 'GET', path: '/api/governance/odcs/orders_contract', name: 'orders_contract' },
  ]);
  // The quality link answers with exactly those checks.
  const checks = await request(app).get(linked.body.links.quality.path).expect(200);
  expect(checks.body).toHaveLength(2);
});

test('a view answers with its columns and no history', async () => {
  const res = await request(app).get('/api/tables/shop.sales.eu_orders').expect(200);
  expect(res.body.table_type).toBe('VIEW');
  expect(res.body.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'region', 'amount']);
  expect(res.body.history).toEqual([]);
});

test('a malformed name is a 400 naming the parameter; a missing table a 404', async () => {
  const two = await request(app).get('/api/tables/shop.orders').expect(400);
  expect(two.body.error.details[0]).toMatchObject({
    path: 'params.full_name',
    message: expect.stringMatching(/catalog\.schema\.table/),
  });
  const bad = await request(app)
    .get(`/api/tables/${encodeURIComponent('shop.sales.or;ders')}`)
    .expect(400);
  expect(bad.body.error.details[0].path).toBe('params.full_name');
  const missing = await request(app).get('/api/tables/shop.sales.nope').expect(404);
  expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Table shop.sales.nope does not exist' });
  await request(app).get('/api/tables/nocatalog.sales.orders').expect(404);
  await request(app).get('/api/tables/shop.sales.orders?history_limit=-1').expect(400);
});

test('lakeward table show prints the columns, history and links the API returns', async () => {
  const server = await startServer(testAppDeps({ store, open: async () => ws }), { host: '127.0.0.1', port: 0 });
  try {
    const root = path.resolve(__dirname, '../..');
    const run = (args: string[]) => promisify(execFile)(path.join(root, 'bin/lakeward'), args, { cwd: root });
    const text = (await run(['table', 'show', 'shop.sales.orders', '--url', server.url])).stdout;
    expect(text).toContain('shop.sales.orders  MANAGED DELTA  version 1');
    expect(text).toMatch(/region\s+string\s+PARTITION/);
    expect(text).toMatch(/id\s+bigint\s+NOT NULL\s+-- order id/);
    expect(text).toMatch(/v1 .* WRITE/);
    const json = JSON.parse((await run(['table', 'show', 'shop.sales.orders', '--url', server.url, '--json'])).stdout);
    expect(json.columns).toHaveLength(3);
    const failed = await run(['table', 'show', 'shop.sales.nope', '--url', server.url]).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('NOT_FOUND (HTTP 404): Table shop.sales.nope does not exist');
  } finally {
    await server.close(500);
  }
}, 60_000);
