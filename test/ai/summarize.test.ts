import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

/**
 * POST /api/ai/summarize on the local lakehouse: the engine's facts and the template's words, and model calls
 * to a stub OpenAI-compatible server under the token budget.
 */
let store: Store;
let root: string;
let deps: AppDeps;
let app: Express;
let stub: Server;
let stubUrl: string;
let stubStatus = 200;
const stubRequests: Record<string, unknown>[] = [];

beforeAll(async () => {
  store = await createTestStore();
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-ai-'));
  const ws = new LocalWorkspace({ root, user: 'lakeward' });
  await ws.createCatalog({ name: 'shop' });
  await ws.createSchema({ catalog: 'shop', name: 'sales' });
  const make = (name: string, query: string) =>
    ws.createTableAs({ ref: { catalog: 'shop', schema: 'sales', name }, query });
  await make('orders', 'SELECT id, id % 7 AS customer_id, id * 1.5 AS amount, id % 3 AS region FROM range(50) t(id)');
  await make('customers', "SELECT id, CASE WHEN id % 2 = 0 THEN 'DE' ELSE 'FR' END AS country FROM range(7) t(id)");
  await make('refunds', 'SELECT id AS order_id FROM range(5) t(id)');
  await ws.close();
  deps = testAppDeps({
    store,
    flags: { dataDir: root },
    open: async () => new LocalWorkspace({ root, user: 'lakeward' }),
  });
  stub = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      stubRequests.push({ path: req.url, ...(JSON.parse(body) as Record<string, unknown>) });
      res.writeHead(stubStatus, { 'content-type': 'application/json' });
      if (stubStatus !== 200) return res.end(JSON.stringify({ error: { message: 'overloaded' } }));
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 0,
          model: 'stub',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'A model summary.' } }],
        }),
      );
    });
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`;
  deps.config.ai.local_serving_endpoints = { 'stub-llm': stubUrl };
  app = createApp(deps);
}, 60_000);

afterAll(async () => {
  await new Promise((r) => stub?.close(r));
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
  stubRequests.length = 0;
  stubStatus = 200;
});

const summarize = (body: Record<string, unknown>, model?: string) => {
  const r = request(app).post('/api/ai/summarize');
  return (model ? r.set('X-Databricks-Model', model) : r).send(body);
};

const T = (n: string) => `shop.sales.${n}`;
const CASES: { kind: string; sql: string; tables: string[]; filters: string[]; joins: string[] }[] = [
  {
    kind: 'filter',
    sql: 'SELECT id, amount FROM shop.sales.orders WHERE amount > 10 AND region = 2',
    tables: [T('orders')],
    filters: ['amount > 10', 'region = 2'],
    joins: [],
  },
  {
    kind: 'join',
    sql: "SELECT o.id, c.country FROM shop.sales.orders o JOIN shop.sales.customers c ON o.customer_id = c.id WHERE c.country = 'DE'",
    tables: [T('orders'), T('customers')],
    filters: ["c.country = 'DE'"],
    joins: ['o.customer_id = c.id'],
  },
  {
    kind: 'aggregation',
    sql: 'SELECT region, count(*) AS n, sum(amount) AS total FROM shop.sales.orders GROUP BY region HAVING count(*) > 3',
    tables: [T('orders')],
    filters: ['count(*) > 3'],
    joins: [],
  },
  {
    kind: 'window',
    sql: 'SELECT id, sum(amount) OVER (PARTITION BY region ORDER BY id) AS running FROM shop.sales.orders WHERE id < 20',
    tables: [T('orders')],
    filters: ['id < 20'],
    joins: [],
  },
  {
    kind: 'subquery',
    sql: 'SELECT id FROM shop.sales.orders WHERE id NOT IN (SELECT order_id FROM shop.sales.refunds) AND amount >= 3',
    tables: [T('orders'), T('refunds')],
    filters: ['NOT (id IN (SELECT order_id FROM shop.sales.refunds))', 'amount >= 3'],
    joins: [],
  },
];

test.each(CASES)(
  'without a model the template names exactly the tables, filters and joins of a $kind query',
  async (c) => {
    const res = await summarize({ context_type: 'query_explain', sql: c.sql });
    expect(res.status).toBe(200);
    const { summary, explain } = res.body;
    expect(res.body).toMatchObject({ source: 'template', reason: 'no_model', ai: { calls: 0, tokens_charged: 0 } });
    expect(explain.tables).toEqual(c.tables);
    expect(explain.filters).toEqual(c.filters);
    expect(explain.joins.map((j: { condition: string }) => j.condition)).toEqual(c.joins);
    expect(explain.plan.length).toBeGreaterThan(0);
    for (const x of [...c.tables, ...c.filters, ...c.joins]) expect(summary).toContain(x);
    const named = new Set(summary.match(/shop\.sales\.[a-z_]+/g));
    const inFilters = c.filters.join(' ').match(/shop\.sales\.[a-z_]+/g) ?? [];
    expect([...named].sort()).toEqual([...new Set([...c.tables, ...inFilters])].sort());
    if (c.joins.length === 0) expect(summary).not.toMatch(/joins/);
    else expect(summary).toMatch(/It joins shop\.sales\.orders with shop\.sales\.customers \(INNER JOIN on/);
  },
);

test('a serving endpoint call carries max_tokens and charges exactly that; the usage row says so', async () => {
  const res = await summarize(
    { context_type: 'query_explain', sql: CASES[1].sql, max_tokens: 700, ai_token_budget: 5000 },
    'stub-llm',
  );
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({
    summary: 'A model summary.',
    source: 'serving_endpoint',
    ai: { budget: 5000, tokens_charged: 700, remaining: 4300, calls: 1 },
  });
  expect(stubRequests).toHaveLength(1);
  expect(stubRequests[0]).toMatchObject({ path: '/v1/chat/completions', model: 'stub-llm', max_tokens: 700 });
  const usage = await request(app).get(`/api/ai/usage/${res.body.usage_id}`);
  expect(usage.body).toMatchObject({
    route: 'POST /api/ai/summarize',
    backend: 'serving_endpoint',
    model: 'stub-llm',
    budget: 5000,
    calls: 1,
    tokens_charged: 700,
  });
});

test('a budget below max_tokens, or 0, makes no call and the template answers', async () => {
  const low = await summarize(
    { context_type: 'query_explain', sql: CASES[0].sql, max_tokens: 700, ai_token_budget: 699 },
    'stub-llm',
  );
  expect(low.body).toMatchObject({ source: 'template', reason: 'budget', ai: { tokens_charged: 0, calls: 0 } });
  expect(low.body.summary).toContain('amount > 10');
  const off = await summarize({ context_type: 'profiling', data: { rows: 10 }, ai_token_budget: 0 }, 'stub-llm');
  expect(off.body).toMatchObject({ source: 'template', reason: 'disabled', ai: { budget: 0, calls: 0 } });
  expect(off.body.summary).toBe('Profile summary: 1 field — rows 10.');
  expect(stubRequests).toHaveLength(0);
});

test('a model answering 500 gives the template text and is still charged its max_tokens', async () => {
  stubStatus = 500;
  const res = await summarize({ context_type: 'query_explain', sql: CASES[2].sql, max_tokens: 300 }, 'stub-llm');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ source: 'template', reason: 'model_error', ai: { tokens_charged: 300, calls: 1 } });
  expect(res.body.summary).toContain('It computes count(*) and sum(amount).');
  expect(stubRequests).toHaveLength(1);
  const usage = await request(app).get(`/api/ai/usage/${res.body.usage_id}`);
  expect(usage.body).toMatchObject({ calls: 1, failed_calls: 1, tokens_charged: 300 });
});

test('a workbench statement_id is explained from the statement it ran', async () => {
  const st = await request(app).post('/api/sql/statements').send({ statement: CASES[0].sql });
  expect(st.body.status.state).toBe('SUCCEEDED');
  const res = await summarize({ context_type: 'query_explain', statement_id: st.body.statement_id });
  expect(res.status).toBe(200);
  expect(res.body.explain).toMatchObject({ tables: CASES[0].tables, filters: CASES[0].filters });
});

test('bad requests are 400 naming the field: unknown context_type, a write, an unknown endpoint', async () => {
  const kind = await summarize({ context_type: 'poetry', sql: 'SELECT 1' });
  expect(kind.status).toBe(400);
  expect(kind.body.error.details[0].path).toBe('body.context_type');
  const write = await summarize({ context_type: 'query_explain', sql: 'DELETE FROM shop.sales.orders' });
  expect(write.status).toBe(400);
  expect(write.body.error.details[0]).toMatchObject({ path: 'body.sql', message: 'DELETE is not allowed' });
  const endpoint = await summarize({ context_type: 'query_explain', sql: CASES[0].sql }, 'nope');
  expect(endpoint.status).toBe(400);
  expect(endpoint.body.error.details[0].path).toBe('headers.x-databricks-model');
  expect((await request(app).get('/api/ai/usage/none')).status).toBe(404);
});
