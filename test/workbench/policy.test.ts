import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { testAppDeps } from '../api/deps';
import { createHarness, type Harness } from '../helpers/harness';

/**
 * The workbench runs SQL under the service's own principal, so every table a statement reads is checked against
 * the caller's access policies first: an editor limited to catalog `sales` reads nothing of `hr_secret` through
 * a statement, a subquery, EXPLAIN, DESCRIBE or a notebook cell.
 */
let h: Harness;
let app: Express;
const KEYS = { admin: 'admin-key-0123456789', editor: 'editor-key-0123456789' };
const as = (role: keyof typeof KEYS) => ({ Authorization: `Bearer ${KEYS[role]}` });

beforeAll(async () => {
  h = await createHarness('workbench-policy');
  const root = h.config.workspace.root;
  const ws = h.open(root);
  for (const [catalog, schema, name] of [
    ['sales', 's', 'orders'],
    ['hr_secret', 'crm', 'accounts'],
  ]) {
    await ws.createCatalog({ name: catalog, ifNotExists: true });
    await ws.createSchema({ catalog, name: schema, ifNotExists: true });
    await ws.createTable({ ref: { catalog, schema, name }, columns: [{ name: 'id', type: 'bigint' }] });
    await ws.insertRows({ catalog, schema, name }, [{ id: 1 }, { id: 2 }]);
  }
  const deps = testAppDeps({ store: h.store, flags: { dataDir: h.config.data_dir }, open: async () => h.open(root) });
  const keys = (['admin', 'editor'] as const).map((role) => ({
    name: `${role}-bot`,
    key: KEYS[role],
    key_env: null,
    role,
  }));
  deps.config = { ...deps.config, api_server: { ...deps.config.api_server, keys } };
  app = createApp(deps);
  await request(app)
    .post('/api/rbac/policies')
    .set(as('admin'))
    .send({ name: 'editors-read-sales-only', principals: ['editor'], allowed_sources: ['sales'] })
    .expect(201);
}, 120_000);
afterAll(async () => h?.teardown());

const S = '/api/sql/statements';

test.each([
  'SELECT * FROM hr_secret.crm.accounts',
  'SELECT * FROM sales.s.orders WHERE id IN (SELECT id FROM hr_secret.crm.accounts)',
  'EXPLAIN SELECT * FROM hr_secret.crm.accounts',
  'DESCRIBE TABLE hr_secret.crm.accounts',
  'SHOW TABLES IN hr_secret.crm',
])('an editor limited to sales: %s → 403 naming the table and the rule', async (statement) => {
  const res = await request(app).post(S).set(as('editor')).send({ statement }).expect(403);
  expect(res.body.error.code).toBe('POLICY_DENIED');
  expect(res.body.error.message).toContain('editors-read-sales-only');
  const history = (await request(app).get('/api/sql/history').set(as('editor')).expect(200)).body.history;
  expect(history.some((e: { statement: string }) => e.statement === statement)).toBe(false);
});

test('the editor reads sales, and an admin (not named by the rule) reads hr_secret', async () => {
  const mine = (
    await request(app).post(S).set(as('editor')).send({ statement: 'SELECT count(*) FROM sales.s.orders' }).expect(200)
  ).body;
  expect(mine.result.data_array).toEqual([['2']]);
  const admin = (
    await request(app)
      .post(S)
      .set(as('admin'))
      .send({ statement: 'SELECT count(*) FROM hr_secret.crm.accounts' })
      .expect(200)
  ).body;
  expect(admin.result.data_array).toEqual([['2']]);
  // One caller cannot read another's statement.
  await request(app).get(`${S}/${admin.statement_id}`).set(as('editor')).expect(404);
});

test('a notebook cell is checked the same way', async () => {
  const nb = (
    await request(app)
      .post('/api/notebooks')
      .set(as('editor'))
      .send({ title: 'probe', cells: [{ type: 'sql', content: 'SELECT * FROM hr_secret.crm.accounts' }] })
      .expect(201)
  ).body;
  await request(app).post(`/api/notebooks/${nb.id}/cells/${nb.cells[0].id}/run`).set(as('editor')).send({}).expect(403);
  await request(app).post(`/api/notebooks/${nb.id}/run`).set(as('editor')).send({}).expect(403);
});
