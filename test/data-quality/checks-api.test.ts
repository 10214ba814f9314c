import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../api/app';
import type { Workspace } from '../../platform/port';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';
import { ORDERS_FQN, ordersWorkspace } from './fixtures';

let store: Store;
let ws: Workspace;
let remove: () => void;
let app: Express;
let keyedApp: Express;

beforeAll(async () => {
  store = await createTestStore();
  ({ ws, remove } = await ordersWorkspace());
  app = createApp(testAppDeps({ store, open: async () => ws }));
  keyedApp = createApp(testAppDeps({ store, open: async () => ws, env: { LAKEWARD_API_KEY: 'k3y' } }));
});
afterAll(async () => {
  await store.close();
  remove();
});

const G = '/api/governance/dqx';
const countChecks = async () => (await request(app).get(`${G}/checks`).expect(200)).body.length as number;

test('a check is created, listed, updated, toggled and deleted, each step in the audit log', async () => {
  const created = await request(app)
    .post(`${G}/checks`)
    .send({ table_fqn: ORDERS_FQN, check_function: 'is_not_null', arguments: { column: 'customer' } })
    .expect(201);
  expect(created.body).toHaveLength(1);
  const id = created.body[0].id as string;
  expect(created.body[0]).toMatchObject({ criticality: 'error', enabled: true, created_by: 'anonymous' });

  // served without the /api prefix too
  const listed = await request(app).get(`/governance/dqx/checks?table_fqn=${ORDERS_FQN}`).expect(200);
  expect(listed.body.map((c: { id: string }) => c.id)).toContain(id);

  const updated = await request(app).put(`${G}/checks/${id}`).send({ criticality: 'warning' }).expect(200);
  expect(updated.body.criticality).toBe('warn');
  await request(app)
    .post(`${G}/checks/${id}/toggle`)
    .send({})
    .expect(200, /"enabled":false/);
  await request(app)
    .post(`${G}/checks/${id}/toggle`)
    .send({ enabled: true })
    .expect(200, /"enabled":true/);
  await request(app).delete(`${G}/checks/${id}`).expect(200);
  await request(app).delete(`${G}/checks/${id}`).expect(404);

  const audit = (await request(app).get(`${G}/checks/audit-log?check_id=${id}`).expect(200)).body;
  expect(audit.map((a: { action: string }) => a.action)).toEqual(['delete', 'enable', 'disable', 'update', 'create']);
  expect(JSON.parse(audit[3].changes)).toEqual({ criticality: { from: 'error', to: 'warn' } });
  expect(audit.every((a: { performed_by: string }) => a.performed_by === 'anonymous')).toBe(true);
});

test('for_each_column stores one check per column; bulk delete by table audits each', async () => {
  const res = await request(app)
    .post(`${G}/checks`)
    .send({ table_fqn: ORDERS_FQN, check_function: 'is_not_null', for_each_column: ['id', 'status', 'region'] })
    .expect(201);
  expect(res.body.map((c: { arguments: { column: string } }) => c.arguments.column)).toEqual([
    'id',
    'status',
    'region',
  ]);
  const bulk = await request(app).post(`${G}/checks/delete-bulk`).send({ table_fqn: ORDERS_FQN }).expect(200);
  expect(bulk.body.deleted).toBe(3);
  const audit = (await request(app).get(`${G}/checks/audit-log?table_fqn=${ORDERS_FQN}&limit=3`).expect(200)).body;
  expect(audit.map((a: { action: string }) => a.action)).toEqual(['bulk_delete', 'bulk_delete', 'bulk_delete']);
});

test('with an API key the audit log names the key, never the key itself', async () => {
  const res = await request(keyedApp)
    .post(`${G}/checks`)
    .set('Authorization', 'Bearer k3y')
    .send({ table_fqn: ORDERS_FQN, check_function: 'is_unique', arguments: { columns: ['id'] } })
    .expect(201);
  const audit = (await request(app).get(`${G}/checks/audit-log?check_id=${res.body[0].id}`).expect(200)).body;
  expect(audit[0].performed_by).toBe('api_key');
  await request(app).delete(`${G}/checks/${res.body[0].id}`).expect(200);
});

test.each([
  ['an unknown function', { check_function: 'is_purple', arguments: { column: 'id' } }, 422, 'body.check_function'],
  [
    'a missing argument',
    { check_function: 'is_in_range', arguments: { column: 'amount', min_limit: 1 } },
    422,
    'body.arguments.max_limit',
  ],
  [
    'a mistyped argument',
    { check_function: 'is_not_less_than', arguments: { column: 'amount', limit: 'ten' } },
    422,
    'body.arguments.limit',
  ],
  ['an unknown column', { check_function: 'is_not_null', arguments: { column: 'nope' } }, 422, 'body.arguments.column'],
  [
    'a ; inside sql_expression',
    { check_function: 'sql_expression', arguments: { expression: 'amount > 0; DROP TABLE x' } },
    400,
    'body.arguments.expression',
  ],
  [
    'DDL inside sql_expression',
    { check_function: 'sql_expression', arguments: { expression: 'DROP TABLE x' } },
    400,
    'body.arguments.expression',
  ],
  [
    'a geo function on the local lakehouse',
    { check_function: 'is_point', arguments: { column: 'region' } },
    422,
    'body.check_function',
  ],
])('%s is refused naming the field, and nothing is stored', async (_what, body, status, path) => {
  const before = await countChecks();
  const res = await request(app)
    .post(`${G}/checks`)
    .send({ table_fqn: ORDERS_FQN, ...body })
    .expect(status);
  expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  expect(await countChecks()).toBe(before);
});

test('a check on a table that does not exist is a 404; a malformed table name a 400', async () => {
  await request(app)
    .post(`${G}/checks`)
    .send({ table_fqn: 'shop.sales.nope', check_function: 'is_not_null', arguments: { column: 'id' } })
    .expect(404);
  const res = await request(app)
    .post(`${G}/checks`)
    .send({ table_fqn: 'orders', check_function: 'is_not_null', arguments: { column: 'id' } })
    .expect(400);
  expect(res.body.error.details[0].path).toBe('body.table_fqn');
});

test('the function catalog lists every function with its level and arguments, geo ones unavailable locally', async () => {
  const fns = (await request(app).get(`${G}/check-functions`).expect(200)).body as {
    name: string;
    level: string;
    available: boolean;
    args: { name: string }[];
  }[];
  expect(fns.length).toBeGreaterThanOrEqual(87);
  expect(fns.find((f) => f.name === 'is_in_range')).toMatchObject({ level: 'row', available: true });
  expect(fns.find((f) => f.name === 'is_in_range')?.args.map((a) => a.name)).toEqual(
    expect.arrayContaining(['column', 'min_limit', 'max_limit']),
  );
  expect(fns.find((f) => f.name === 'is_unique')).toMatchObject({ level: 'dataset' });
  expect(fns.find((f) => f.name === 'is_point')).toMatchObject({ available: false });
});
