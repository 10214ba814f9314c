import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Express } from 'express';
import request from 'supertest';
import { parse as parseYaml, stringify } from 'yaml';
import { odcsIssues } from '../../activities/contracts/logic';
import { createApp } from '../../api/app';
import { startServer } from '../../api/server';
import type { Workspace } from '../../platform/port';
import { validationsOf } from '../../store/contracts/repo';
import { harnessAppDeps } from '../helpers/harness-app';
import { createHarness, eventually, type Harness } from '../helpers/harness';

const DATACONTRACT = path.resolve(__dirname, '../../.venv/bin/datacontract');
const O = '/api/governance/odcs';
const run = promisify(execFile);
const TSX = path.resolve(__dirname, '../../node_modules/.bin/tsx');
const CLI = path.resolve(__dirname, '../../cli/main.ts');

let h: Harness;
let app: Express;
let ws: Workspace;
let tmp: string;
let hook: http.Server;
const received: Record<string, unknown>[] = [];
const hits = new Map<string, number>();

async function seedTable(catalog: string, name: string, rows: Record<string, unknown>[]) {
  if (!(await ws.listCatalogs()).some((c) => c.name === catalog)) {
    await ws.createCatalog({ name: catalog });
    await ws.createSchema({ catalog, name: 'sales' });
  }
  const ref = { catalog, schema: 'sales', name };
  await ws.createTable({
    ref,
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'customer_id', type: 'bigint' },
      { name: 'amount', type: 'double' },
      { name: 'email', type: 'string' },
    ],
  });
  await ws.insertRows(ref, rows);
  await ws.setColumnTags(ref, 'email', { pii: 'true', classification: 'confidential' });
  return ref;
}

const rows = (n: number, nullCustomer = false) =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    customer_id: nullCustomer && i === 0 ? null : 100 + i,
    amount: i * 1.5,
    email: `c${i}@example.com`,
  }));

beforeAll(async () => {
  h = await createHarness('contracts');
  const root = h.config.workspace.root;
  ws = h.open(root);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'lw-contracts-'));
  app = createApp(harnessAppDeps(h));
  hook = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
      // The first delivery to /flaky fails as a busy endpoint would: the activity's retry policy sends it again.
      if (req.url === '/flaky' && hits.get(req.url) === 1) return void res.writeHead(503).end();
      received.push({ path: req.url, ...(JSON.parse(body) as Record<string, unknown>) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => hook?.close(resolve));
  rmSync(tmp, { recursive: true, force: true });
  await h?.teardown();
});

/** The document passes the official ODCS JSON Schema and `datacontract lint` (datacontract-cli). */
function assertOdcs(doc: Record<string, unknown>) {
  expect(odcsIssues(doc)).toEqual([]);
  const file = path.join(tmp, `${String(doc.id).replace('@', '_')}.odcs.yaml`);
  writeFileSync(file, stringify(doc));
  const out = execFileSync(DATACONTRACT, ['lint', file], { encoding: 'utf8' });
  expect(out).toContain('valid');
}

type Doc = Record<string, unknown> & { schema: { properties: Record<string, unknown>[] }[] };

test('generate → publish 1.0 (immutable: PUT is 409) → a new draft publishes as 1.1; every document is valid ODCS', async () => {
  await seedTable('ct', 'orders', rows(5));
  const gen = await request(app)
    .post(`${O}/generate`)
    .send({ scope: 'table', catalog: 'ct', schema: 'sales', table: 'orders' })
    .expect(201);
  expect(gen.body).toMatchObject({ id: 'orders@1.0', status: 'draft', immutable: false });
  const draft = gen.body.document as Doc;
  expect(draft).toMatchObject({ apiVersion: 'v3.0.2', kind: 'DataContract', version: '1.0.0', status: 'draft' });
  const email = draft.schema[0].properties.find((p) => p.name === 'email')!;
  expect(email).toMatchObject({ classification: 'confidential', tags: ['pii'], logicalType: 'string' });
  expect(draft.slaProperties).toEqual([expect.objectContaining({ property: 'latency', unit: 'h' })]);
  assertOdcs(draft);

  const v10 = await request(app).post(`${O}/orders/publish`).expect(200);
  expect(v10.body).toMatchObject({ id: 'orders@1.0', immutable: true, latest_version: '1.0', status: 'active' });
  assertOdcs(v10.body.document);
  const put = await request(app).put(`${O}/orders@1.0`).send({ document: draft }).expect(409);
  expect(put.body.error.message).toContain('published');
  await request(app).put(`${O}/orders`).send({ document: draft }).expect(409);

  const changed = { ...v10.body.document, domain: 'sales-eu' };
  const imported = await request(app)
    .post(`${O}/import`)
    .send({ yaml: stringify(changed) })
    .expect(201);
  expect(imported.body).toMatchObject({ id: 'orders@1.1', status: 'draft', draft_id: 'orders@1.1' });
  await request(app)
    .put(`${O}/orders@1.1`)
    .send({ document: { ...imported.body.document, tenant: 'emea' } })
    .expect(200);
  const v11 = await request(app).post(`${O}/orders@1.1/publish`).expect(200);
  expect(v11.body).toMatchObject({ id: 'orders@1.1', versions: ['1.0', '1.1'], latest_version: '1.1' });
  expect(v11.body.document).toMatchObject({ version: '1.1.0', status: 'active', domain: 'sales-eu', tenant: 'emea' });
  assertOdcs(v11.body.document);
  const old = await request(app).get(`${O}/orders@1.0`).expect(200);
  expect(old.body.document).toEqual(v10.body.document);
  await request(app).post(`${O}/orders@1.0/publish`).expect(409);
});

test('a document that breaks the ODCS schema is refused with 422 naming its JSON path', async () => {
  const bad = {
    apiVersion: 'v3.0.2',
    kind: 'DataContract',
    id: 'badone@1.0',
    version: '1.0.0',
    status: 'draft',
    schema: [{ name: 't', properties: [{ name: 'a', logicalType: 'timestamp' }] }],
  };
  const res = await request(app)
    .post(`${O}/import`)
    .send({ yaml: stringify(bad) })
    .expect(422);
  expect(res.body.error.details).toContainEqual({
    path: 'body.document.schema[0].properties[0].logicalType',
    message: expect.stringContaining('must be one of'),
  });
  const http = { ...bad, customProperties: [{ property: 'enforcementEndpoint', value: 'http://example.com/x' }] };
  const res2 = await request(app)
    .post(`${O}/import`)
    .send({ yaml: stringify({ ...http, schema: [] }) })
    .expect(422);
  expect(res2.body.error.details[0].path).toBe('body.document.customProperties[0].value');
  await request(app).get(`${O}/badone`).expect(404);
});

test('after a column is dropped and nulls enter a required one, validation reports exactly those two; the endpoint gets the event (retried)', async () => {
  const ref = await seedTable('cv', 'orders', rows(4));
  await h.withWorker(async () => {
    const gen = await request(app)
      .post(`${O}/generate`)
      .send({ catalog: 'cv', schema: 'sales', table: 'orders', name: 'cv_orders' })
      .expect(201);
    const doc = gen.body.document as Doc;
    doc.schema[0].properties.find((p) => p.name === 'customer_id')!.required = true;
    const endpoint = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/flaky`;
    doc.customProperties = [
      ...(doc.customProperties as object[]),
      { property: 'enforcementEndpoint', value: endpoint },
    ];
    await request(app).put(`${O}/cv_orders`).send({ document: doc }).expect(200);
    await request(app).post(`${O}/cv_orders/publish`).expect(200);
    await request(app).post(`${O}/cv_orders/attach`).send({ table_fqn: 'cv.sales.orders' }).expect(200);

    const clean = await request(app).post(`${O}/validate/cv_orders`).send({}).expect(200);
    expect(clean.body).toMatchObject({
      status: 'passed',
      results: [{ table_fqn: 'cv.sales.orders', violation_count: 0 }],
    });

    await ws.createTableAs({
      ref: { ...ref, name: 'orders_tmp' },
      query: 'SELECT id, customer_id, email FROM cv.sales.orders',
    });
    await ws.dropTable(ref);
    await ws.createTableAs({ ref, query: 'SELECT * FROM cv.sales.orders_tmp' });
    await ws.insertRows(ref, [{ id: 9, customer_id: null, email: 'n@example.com' }]);

    const res = await request(app).post(`${O}/validate/cv_orders@1.0`).send({}).expect(200);
    expect(res.body.status).toBe('failed');
    const [result] = res.body.results;
    expect(result.drift).toBe(true);
    const all = Object.values(result.sections as Record<string, { violations: { type: string; column: string }[] }>)
      .flatMap((s) => s.violations)
      .map((v) => [v.type, v.column]);
    expect(all).toEqual([
      ['missing_column', 'amount'],
      ['required_has_nulls', 'customer_id'],
    ]);
    expect(res.body.enforcement).toEqual({ endpoint, delivered: true });
    expect(hits.get('/flaky')).toBe(2);
    const event = await eventually(() => received.find((e) => e.contract_id === 'cv_orders@1.0'), {
      what: 'the failure event at the enforcement endpoint',
    });
    expect(event).toMatchObject({
      path: '/flaky',
      event: 'contract_validation_failed',
      trigger: 'api',
      failures: [
        { table_fqn: 'cv.sales.orders', violations: [{ type: 'missing_column' }, { type: 'required_has_nulls' }] },
      ],
    });
    const stored = await validationsOf(h.store.db, { name: 'cv_orders' });
    expect(stored.map((v) => v.status)).toEqual(['failed', 'passed']);
  });
});

test('a clone of a table whose attached contract (severity error) fails on the destination fails the job and says why; severity warn only warns', async () => {
  await seedTable('cc', 'orders', rows(3, true));
  const gen = await request(app)
    .post(`${O}/generate`)
    .send({ catalog: 'cc', schema: 'sales', table: 'orders', name: 'cc_orders' })
    .expect(201);
  const doc = gen.body.document as Doc;
  doc.schema[0].properties.find((p) => p.name === 'customer_id')!.required = true;
  await request(app).put(`${O}/cc_orders`).send({ document: doc }).expect(200);
  await request(app).post(`${O}/cc_orders/publish`).expect(200);
  await request(app).post(`${O}/cc_orders/attach`).send({ table_fqn: 'cc.sales.orders' }).expect(200);

  const input = h.jobInput(h.config.workspace.root, { source_catalog: 'cc', destination_catalog: 'cc_copy' });
  const summary = await h.withWorker(() => h.run(input));
  expect(summary.status).toBe('failed');
  expect(summary.error).toBe('contract cc_orders@1.0 failed on cc_copy.sales.orders (1 violation(s))');
  expect(summary.contract_validations).toEqual([
    expect.objectContaining({ table_fqn: 'cc_copy.sales.orders', status: 'failed', severity: 'error' }),
  ]);
  const [v] = await validationsOf(h.store.db, { jobId: input.jobId });
  expect(v).toMatchObject({ trigger: 'clone', tableFqn: 'cc_copy.sales.orders', violationCount: 1 });
  expect(JSON.stringify(v.sections)).toContain('required column customer_id has 1 null value(s)');

  // Version 1.1 with severity warn: the same violation only warns, and the job completes.
  const v10 = (await request(app).get(`${O}/cc_orders@1.0`).expect(200)).body.document as Doc;
  const warn = { ...v10, customProperties: [{ property: 'enforcementSeverity', value: 'warn' }] };
  await request(app)
    .post(`${O}/import`)
    .send({ yaml: stringify(warn) })
    .expect(201);
  await request(app).post(`${O}/cc_orders/publish`).expect(200);
  const again = h.jobInput(h.config.workspace.root, { source_catalog: 'cc', destination_catalog: 'cc_warn' });
  const warned = await h.withWorker(() => h.run(again));
  expect(warned.status).toBe('completed');
  expect(warned.warnings).toContain('contract cc_orders@1.1 failed on cc_warn.sales.orders (1 violation(s))');
});

test('a published contract with a validation schedule gets a Temporal Schedule that validates it; delete detaches, then archives and removes it', async () => {
  await seedTable('cs', 'orders', rows(2));
  const gen = await request(app)
    .post(`${O}/generate`)
    .send({ catalog: 'cs', schema: 'sales', table: 'orders', name: 'cs_orders' })
    .expect(201);
  const doc = gen.body.document as Doc;
  doc.customProperties = [
    ...(doc.customProperties as object[]),
    { property: 'validationSchedule', value: '0 3 * * *' },
  ];
  const put = await request(app).put(`${O}/cs_orders`).send({ document: doc }).expect(200);
  expect(put.body.schedule).toBe('0 3 * * *');
  assertOdcs(put.body.document);
  await request(app).post(`${O}/cs_orders/publish`).expect(200);
  await request(app).post(`${O}/cs_orders/attach`).send({ table_fqn: 'cs.sales.orders' }).expect(200);
  await request(app).post(`${O}/cs_orders/attach`).send({ table_fqn: 'cs.sales.nope' }).expect(404);

  const handle = h.env.client.schedule.getHandle('contract-validate-cs_orders');
  const described = await handle.describe();
  expect(described.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 3, end: 3, step: 1 }] });
  await h.withWorker(async () => {
    await handle.trigger();
    const [v] = await eventually(
      async () => {
        const rows = await validationsOf(h.store.db, { name: 'cs_orders' });
        return rows.length ? rows : undefined;
      },
      { what: 'a scheduled validation of cs_orders' },
    );
    expect(v).toMatchObject({ trigger: 'schedule', status: 'passed', tableFqn: 'cs.sales.orders', version: '1.0' });
  });

  const detached = await request(app).delete(`${O}/cs_orders`).expect(200);
  expect(detached.body).toMatchObject({ action: 'detached', detached: ['cs.sales.orders'], status: 'active' });
  const archived = await request(app).delete(`${O}/cs_orders`).expect(200);
  expect(archived.body).toMatchObject({ action: 'archived', status: 'archived' });
  await expect(handle.describe()).rejects.toThrow(/not found/i);
  await request(app).post(`${O}/validate/cs_orders`).send({}).expect(409);
});

test('lakeward contract generate|publish|attach|validate drives the same API; validate exits 1 on a failing contract', async () => {
  await seedTable('cl', 'orders', rows(3, true));
  const deps = harnessAppDeps(h);
  const server = await startServer(deps, { host: '127.0.0.1', port: 0 });
  const cli = (...args: string[]) =>
    run(TSX, [CLI, 'contract', ...args, '--url', server.url], { encoding: 'utf8' }).then(
      (r) => ({ out: r.stdout, code: 0 }),
      (e: { stdout: string; stderr: string; code: number }) => ({ out: e.stdout + e.stderr, code: e.code }),
    );
  try {
    const out = path.join(tmp, 'cl.odcs.yaml');
    const gen = await cli('generate', 'cl.sales.orders', '--name', 'cl_orders', '--no-sla', '--out', out);
    expect(gen).toMatchObject({ code: 0, out: expect.stringContaining('cl_orders@1.0  draft') });
    expect(parseYaml(readFileSync(out, 'utf8'))).toMatchObject({ id: 'cl_orders@1.0', kind: 'DataContract' });
    expect((await cli('publish', 'cl_orders')).out).toContain('cl_orders@1.0  published');
    expect((await cli('attach', 'cl_orders', 'cl.sales.orders')).out).toContain(
      'cl_orders attached to cl.sales.orders',
    );
    await h.withWorker(async () => {
      expect(await cli('validate', 'cl_orders')).toMatchObject({ code: 0, out: expect.stringContaining('passed') });
      const failed = await cli('validate', 'cl_orders', '--table', 'cl.sales.gone');
      expect(failed.code).toBe(1);
      expect(failed.out).toContain('schema: table_not_found: table cl.sales.gone does not exist');
    });
  } finally {
    await server.close(500);
  }
});
