import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Express } from 'express';
import { parse as parseYaml } from 'yaml';
import { parseFqn } from '../../platform/identifiers';
import request from 'supertest';
import { createApp } from '../../api/app';
import { harnessAppDeps } from '../helpers/harness-app';
import { createHarness, type Harness } from '../helpers/harness';
import { ORDERS_FQN, seedOrders } from './fixtures';

const PYTHON = path.resolve(__dirname, '../../.venv/bin/python');
const DQX_LOADER = path.resolve(__dirname, 'dqx_load_checks.py');

let h: Harness;
let app: Express;
let root: string;

beforeAll(async () => {
  h = await createHarness('dq-profiles');
  root = h.config.workspace.root;
  const ws = h.open(root);
  await seedOrders(ws);
  app = createApp(harnessAppDeps(h));
});
afterAll(async () => h?.teardown());

const G = '/api/governance/dqx';
type Col = { name: string; top_values: unknown[]; histogram: { bins: { count: number }[] }; [k: string]: unknown };
const col = (p: { columns: Col[] }, name: string) => p.columns.find((c) => c.name === name)!;

test('a profile gives per-column counts, extremes, moments, lengths, 20 histogram bins and top values; it is stored', async () => {
  const p = await h.withWorker(
    async () => (await request(app).post(`${G}/profile`).send({ table_fqn: ORDERS_FQN }).expect(200)).body,
  );
  expect(p.row_count).toBe(10);
  expect(col(p, 'customer')).toMatchObject({
    nulls: 2,
    distinct: 8,
    null_pct: 20,
    min: 'ann',
    max: 'jon',
    min_length: 3,
    max_length: 3,
  });
  const amount = col(p, 'amount') as unknown as {
    min: number;
    max: number;
    mean: number;
    histogram: { bins: { count: number }[] };
  };
  expect(amount).toMatchObject({ min: -5, max: 900, mean: 194.5, nulls: 0 });
  expect(amount.histogram.bins).toHaveLength(20);
  expect(amount.histogram.bins.reduce((s, b) => s + b.count, 0)).toBe(10);
  expect(col(p, 'status').top_values).toEqual([
    { value: 'new', count: 4, pct: 40 },
    { value: 'paid', count: 4, pct: 40 },
    { value: 'lost', count: 1, pct: 10 },
    { value: 'odd', count: 1, pct: 10 },
  ]);
  const stored = (await request(app).get(`/governance/dqx/profiles?table_fqn=${ORDERS_FQN}`).expect(200)).body;
  expect(stored).toHaveLength(1);
  expect(stored[0].profile_id).toBe(p.profile_id);
});

test('the workbench profiles a table and the result of a read-only query; a write is refused naming sql', async () => {
  const t = await h.withWorker(
    async () =>
      (
        await request(app)
          .post('/api/profile-table')
          .send({ table_fqn: ORDERS_FQN, top_n: 2, histogram_bins: 5 })
          .expect(200)
      ).body,
  );
  expect(col(t, 'status').top_values).toHaveLength(2);
  expect(col(t, 'amount').histogram.bins).toHaveLength(5);
  const q = await h.withWorker(
    async () =>
      (
        await request(app)
          .post('/api/profile-results')
          .send({ sql: `SELECT region, amount FROM ${ORDERS_FQN} WHERE amount > 50` })
          .expect(200)
      ).body,
  );
  expect(q.row_count).toBe(5);
  expect(q.columns.map((c: Col) => c.name)).toEqual(['region', 'amount']);
  const bad = await request(app)
    .post('/api/profile-results')
    .send({ sql: `DELETE FROM ${ORDERS_FQN}` })
    .expect(400);
  expect(bad.body.error.details[0].path).toBe('body.sql');
});

const DQX_DOCS_YAML = `
- criticality: error
  check:
    function: is_not_null
    for_each_column:
    - id
    - customer
- criticality: warn
  name: status_is_known
  filter: amount > 0
  check:
    function: is_in_list
    arguments:
      column: status
      allowed:
      - new
      - paid
- criticality: error
  check:
    function: is_in_range
    arguments:
      column: amount
      min_limit: 0
      max_limit: 1000
  user_metadata:
    owner: sales
`;

test('DQX YAML from the docs imports without edits; export → import → export is byte-identical', async () => {
  const imported = (
    await request(app)
      .post(`${G}/checks/import`)
      .send({ table_fqn: ORDERS_FQN, yaml_content: DQX_DOCS_YAML })
      .expect(200)
  ).body;
  expect(imported).toMatchObject({ created: 4, updated: 0, rejected: 0 });
  const first = (await request(app).get(`${G}/checks/export?table_fqn=${ORDERS_FQN}`).expect(200)).text;
  expect(first).toContain('function: is_in_list');
  const again = (
    await request(app).post(`${G}/checks/import`).send({ table_fqn: ORDERS_FQN, yaml_content: first }).expect(200)
  ).body;
  expect(again).toMatchObject({ created: 0, updated: 0, rejected: 0 });
  expect(again.items.every((i: { status: string }) => i.status === 'unchanged')).toBe(true);
  const second = (await request(app).get(`/governance/dqx/checks/export?table_fqn=${ORDERS_FQN}`).expect(200)).text;
  expect(second).toBe(first);

  const mixed = `- criticality: error\n  check: {function: is_not_null, arguments: {column: nope}}\n- criticality: warning\n  check: {function: regex_match, arguments: {column: customer, pattern: "^[a-z]+$"}}\n`;
  const res = (
    await request(app).post(`${G}/checks/import`).send({ table_fqn: ORDERS_FQN, yaml_content: mixed }).expect(200)
  ).body;
  expect(res.items.map((i: { status: string }) => i.status)).toEqual(['rejected', 'created']);
  expect(res.items[0].reason).toMatch(/nope/);
  await request(app).post(`${G}/checks/import`).send({ table_fqn: ORDERS_FQN, yaml_content: 'a: [' }).expect(400);
});

test('checks saved to Delta land in a table shaped like DQX checks storage', async () => {
  const res = (await request(app).post(`${G}/checks/save-to-delta`).send({ table_fqn: ORDERS_FQN }).expect(200)).body;
  expect(res).toMatchObject({ target_table: 'clone_audit.governance.dqx_checks', saved: 5 });
  const rows = (
    await h
      .open(root)
      .query('SELECT name, criticality, `check`, run_config_name FROM clone_audit.governance.dqx_checks')
  ).rows;
  expect(rows).toHaveLength(5);
  expect(rows.every((r) => r.run_config_name === ORDERS_FQN)).toBe(true);
  // saving again replaces the table's rows
  await request(app).post(`${G}/checks/save-to-delta`).send({ table_fqn: ORDERS_FQN }).expect(200);
  expect((await h.open(root).query('SELECT count(*) AS n FROM clone_audit.governance.dqx_checks')).rows[0].n).toBe(5);
});

test("DQX's own table loader reads the saved checks back as the checks Lakeward exports, and DQX validates them", async () => {
  await request(app).post(`${G}/checks/save-to-delta`).send({ table_fqn: ORDERS_FQN }).expect(200);
  const exported = parseYaml(
    (await request(app).get(`${G}/checks/export`).query({ table_fqn: ORDERS_FQN }).expect(200)).text,
  ) as Record<string, unknown>[];
  const detail = await h.open(root).tableDetail(parseFqn('clone_audit.governance.dqx_checks'));
  // DQX's loader runs on Spark; the table is read from its files by delta-rs, not by Lakeward.
  const out = execFileSync(PYTHON, [DQX_LOADER, String(detail.location), ORDERS_FQN], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    timeout: 240_000,
    stdio: ['ignore', 'pipe', 'pipe'], // Spark's start-up chatter stays out of the test output
  });
  const loaded = JSON.parse(out.trim().split('\n').at(-1)!) as { checks: Record<string, unknown>[]; errors: string[] };
  expect(loaded.errors).toEqual([]);
  const byName = (list: Record<string, unknown>[]) =>
    [...list].sort((a, b) => String(a.name).localeCompare(String(b.name)));
  expect(byName(loaded.checks)).toEqual(byName(exported));
}, 300_000);
