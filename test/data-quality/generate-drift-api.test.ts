import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { Workspace } from '../../platform/port';
import { harnessAppDeps } from '../helpers/harness-app';
import { createHarness, type Harness } from '../helpers/harness';

let h: Harness;
let app: Express;
let ws: Workspace;
const ITEMS = { catalog: 'shop', schema: 'sales', name: 'items' };
const FQN = 'shop.sales.items';
const G = '/api/governance/dqx';

async function createItems(columns: { name: string; type: string }[], rows: Record<string, unknown>[]) {
  await ws.dropTable(ITEMS, { ifExists: true });
  await ws.createTable({ ref: ITEMS, columns });
  await ws.insertRows(ITEMS, rows);
}

beforeAll(async () => {
  h = await createHarness('dq-generate');
  const root = h.config.workspace.root;
  ws = h.open(root);
  await ws.createCatalog({ name: 'shop' });
  await ws.createSchema({ catalog: 'shop', name: 'sales' });
  const rows = Array.from({ length: 100 }, (_, i) => ({ sku: `s${i}`, size: ['s', 'm', 'l'][i % 3], price: 10 + i }));
  await createItems(
    [
      { name: 'sku', type: 'string' },
      { name: 'size', type: 'string' },
      { name: 'price', type: 'double' },
    ],
    rows,
  );
  app = createApp(harnessAppDeps(h));
});
afterAll(async () => h?.teardown());

const checks = async () =>
  (await request(app).get(`${G}/checks?table_fqn=${FQN}`).expect(200)).body.map(
    (c: { check_function: string; arguments: unknown }) => `${c.check_function} ${JSON.stringify(c.arguments)}`,
  );

test('checks generated from a profile follow the DQX rules, and generating again adds none', async () => {
  const first = await h.withWorker(
    async () => (await request(app).post(`${G}/generate`).send({ table_fqn: FQN }).expect(200)).body,
  );
  expect(first.created).toBeGreaterThan(0);
  const set = await checks();
  expect(set).toEqual(
    expect.arrayContaining([
      'is_not_null_and_not_empty {"column":"sku","trim_strings":true}',
      'is_unique {"columns":["sku"]}',
      expect.stringMatching(/^is_in_list \{"column":"size","allowed":\["l","m","s"\]/),
    ]),
  );
  expect(
    set.some(
      (s: string) => /^is_in_range \{"column":"price"/.test(s) || /^is_not_less_than \{"column":"price"/.test(s),
    ),
  ).toBe(true);
  const again = (await request(app).post(`${G}/generate`).send({ table_fqn: FQN }).expect(200)).body;
  expect(again).toMatchObject({ created: 0, already_present: first.generated });
  expect(await checks()).toEqual(set);
});

test('profile drift after adding and removing a column: new_column, removed_column with orphans, uncovered for a column no check reads', async () => {
  await request(app)
    .post(`${G}/checks`)
    .send({ table_fqn: FQN, check_function: 'is_not_null', arguments: { column: 'size' } });
  // price loses its checks: no check reads it any more, so it is uncovered
  const all = (await request(app).get(`${G}/checks?table_fqn=${FQN}`).expect(200)).body;
  const onPrice = all.filter((c: { arguments: { column?: string } }) => c.arguments.column === 'price');
  expect(onPrice.length).toBeGreaterThan(0);
  for (const c of onPrice) await request(app).delete(`${G}/checks/${c.id}`).expect(200);
  const sizeChecks = (await request(app).get(`${G}/checks?table_fqn=${FQN}`).expect(200)).body
    .filter((c: { arguments: { column?: string } }) => c.arguments.column === 'size')
    .map((c: { id: string }) => c.id);
  await createItems(
    [
      { name: 'sku', type: 'string' },
      { name: 'price', type: 'double' },
      { name: 'color', type: 'string' },
    ],
    Array.from({ length: 40 }, (_, i) => ({ sku: `s${i}`, price: 10 + i, color: i % 2 ? 'red' : 'blue' })),
  );
  const drift = await h.withWorker(
    async () => (await request(app).post(`${G}/profile-drift`).send({ table_fqn: FQN }).expect(200)).body,
  );
  expect(drift.new_columns).toEqual(['color']);
  expect(drift.removed_columns).toEqual(['size']);
  const types = drift.recommendations.map((r: { type: string; column: string }) => `${r.type}:${r.column}`);
  expect(types).toEqual(expect.arrayContaining(['new_column:color', 'removed_column:size', 'uncovered:price']));
  const removed = drift.recommendations.find((r: { type: string }) => r.type === 'removed_column');
  expect([...removed.orphan_check_ids].sort()).toEqual([...sizeChecks].sort());
  expect(drift.total_recommendations).toBe(drift.recommendations.length);
});
