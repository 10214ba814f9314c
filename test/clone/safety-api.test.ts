import { verify } from 'node:crypto';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import request from 'supertest';
import { createApp } from '../../api/app';
import { createRollbackActivities, recordBeforeChange } from '../../activities/clone/rollback/activities';
import { canonicalJson } from '../../activities/clone/logic/provenance-canonical';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';
import { connectTestEnv, uniqueTaskQueue } from '../helpers/temporal';
import { makeTable } from './safety-helpers';
import { seedSafetyCatalogs } from './fixtures/safety-seed';

let env: TestWorkflowEnvironment;
let store: Store;
let dataDir: string;
let app: ReturnType<typeof createApp>;
let ws: LocalWorkspace;
const taskQueue = uniqueTaskQueue('safety-api');

beforeAll(async () => {
  env = await connectTestEnv();
  store = await createTestStore();
  dataDir = mkdtempSync(path.join(tmpdir(), 'lw-safety-api-'));
  const deps = testAppDeps({
    store,
    flags: { dataDir },
    env: { LAKEWARD_TASK_QUEUE: taskQueue },
    temporal: { client: env.client, connection: env.connection, address: 'test' },
    open: async (spec) => new LocalWorkspace({ root: (spec as { root: string }).root, user: 'lakeward' }),
  });
  ws = new LocalWorkspace({ root: deps.config.workspace.root, user: 'lakeward' });
  await seedSafetyCatalogs(ws);
  app = createApp(deps);
});
afterAll(async () => {
  await store?.close();
  await env?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

test('GET /api/templates lists the built-ins as {name, description, clone_type}', async () => {
  const res = await request(app).get('/api/templates').expect(200);
  expect(res.body.map((t: { name: string }) => t.name)).toEqual([
    'audit-copy',
    'dev-refresh',
    'dr-replica',
    'full-mirror',
    'minimal',
    'pii-safe',
  ]);
  expect(Object.keys(res.body[0]).sort()).toEqual(['clone_type', 'description', 'name']);
  expect((await request(app).get('/api/templates/dr-replica').expect(200)).body.safety).toMatchObject({
    validate_checksum: true,
  });
  expect((await request(app).get('/api/templates/nope').expect(404)).body.error.code).toBe('NOT_FOUND');
});

test('snapshots: capture, list, get, delete; bad input names the field', async () => {
  const created = await request(app)
    .post('/api/clone-snapshots')
    .send({ source_catalog: 'prod', name: 'nightly' })
    .expect(201);
  expect(created.body).toMatchObject({ name: 'nightly', source_catalog: 'prod', table_count: 3 });
  const id = created.body.snapshot_id;
  expect(
    (await request(app).get('/api/clone-snapshots?source_catalog=prod').expect(200)).body.snapshots[0],
  ).toMatchObject({ snapshot_id: id });
  expect((await request(app).get(`/api/clone-snapshots/${id}`).expect(200)).body.tables).toHaveLength(3);
  await request(app).delete(`/api/clone-snapshots/${id}`).expect(200);
  await request(app).get(`/api/clone-snapshots/${id}`).expect(404);
  const bad = await request(app).post('/api/clone-snapshots').send({ name: 'x' }).expect(400);
  expect(bad.body.error.details[0].path).toBe('body.source_catalog');
  expect((await request(app).post('/api/clone-snapshots').send({ source_catalog: 'missing' })).status).toBe(404);
});

test('provenance: the public key verifies a signed manifest offline; a changed manifest is rejected', async () => {
  const pub = (await request(app).get('/api/clone-provenance/public-key').expect(200)).body;
  const signed = (
    await request(app)
      .post('/api/clone-provenance/sign')
      .send({
        source_catalog: 'prod',
        destination_catalog: 'dev',
        job_id: undefined,
        config: { clone_type: 'DEEP', token: 'dapi-secret' },
        result: { tables_cloned: 3 },
      })
      .expect(200)
  ).body;
  expect(JSON.stringify(signed)).not.toContain('dapi-secret');
  // Anyone holding the public key can check it without the service.
  expect(
    verify(
      null,
      Buffer.from(canonicalJson(signed.manifest)),
      createPublicKey(pub.public_key),
      Buffer.from(signed.signature, 'hex'),
    ),
  ).toBe(true);
  expect((await request(app).post('/api/clone-provenance/verify').send(signed).expect(200)).body).toEqual({
    valid: true,
    reason: 'Signature verified',
  });
  const tampered = { ...signed, manifest: { ...signed.manifest, result: { tables_cloned: 4 } } };
  expect((await request(app).post('/api/clone-provenance/verify').send(tampered).expect(200)).body.valid).toBe(false);
  expect(
    (
      await request(app)
        .post('/api/clone-provenance/verify')
        .send({ envelope: signed, public_key: pub.public_key })
        .expect(200)
    ).body.valid,
  ).toBe(true);
  await request(app).post('/api/clone-provenance/sign').send({ job_id: 'clone-unknown' }).expect(404);
  await request(app).post('/api/clone-provenance/sign').send({ source_catalog: 'prod' }).expect(400);
});

test('rollback: logs are listed with counts and POST /api/rollback restores through the rollback workflow', async () => {
  const jobId = 'clone-api-rollback-1';
  const target = { label: 'local', workspace: { kind: 'local' as const, root: ws.root }, destinationCatalog: 'dev' };
  const devOrders = { catalog: 'dev', schema: 'sales', name: 'orders' };
  const orderRows = async () => (await ws.query('SELECT id, region, note FROM dev.sales.orders ORDER BY id')).rows;
  const before = await orderRows();
  const record = (objects: { type: 'schema' | 'table'; fqn: string }[]) =>
    recordBeforeChange(
      { db: store.db, resolveWorkspace: async () => ws },
      { jobId, sourceCatalog: 'prod', target, objects },
    );
  await record([
    { type: 'table', fqn: 'dev.sales.orders' },
    { type: 'schema', fqn: 'dev.extra' },
    { type: 'table', fqn: 'dev.extra.t' },
  ]);
  await ws.overwriteQuery(devOrders, "SELECT 1 AS id, 'X' AS region, 'new' AS note");
  await ws.createSchema({ catalog: 'dev', name: 'extra' });
  await makeTable(ws, { catalog: 'dev', schema: 'extra', name: 't' }, [{ id: 1, name: 'n' }]);

  const listed = (await request(app).get(`/api/rollback/logs?job_id=${jobId}`).expect(200)).body.logs;
  expect(listed).toHaveLength(1);
  expect(listed[0]).toMatchObject({
    job_id: jobId,
    status: 'recorded',
    destination_catalog: 'dev',
    counts: { tables_restored: 1, tables_created: 1, schemas: 1, catalog_created: false, total_objects: 3 },
  });

  await request(app).post('/api/rollback').send({}).expect(400);
  await request(app).post('/api/rollback').send({ job_id: 'clone-nope' }).expect(404);
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../../workflows/clone/rollback-workflow'),
    activities: createRollbackActivities({ db: store.db, resolveWorkspace: async () => ws }),
  });
  const res = await worker.runUntil(request(app).post('/api/rollback').send({ job_id: jobId, wait: true }).expect(200));
  expect(res.body.rollbacks[0].result).toMatchObject({ status: 'rolled_back', restored: 1, dropped: 2, failed: 0 });
  expect(await orderRows()).toEqual(before);
  expect((await ws.listSchemas('dev')).map((s) => s.name)).not.toContain('extra');
  const one = (await request(app).get(`/api/rollback/${listed[0].log_id}`).expect(200)).body;
  expect(one).toMatchObject({ status: 'rolled_back', last_rollback: { restored: 1, dropped: 2, failed: 0 } });
  expect(one.entries.map((e: { fqn: string }) => e.fqn)).toEqual(['dev.sales.orders', 'dev.extra', 'dev.extra.t']);
});
