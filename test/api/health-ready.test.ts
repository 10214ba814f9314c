import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { WorkspaceOpener } from '../../api/deps';
import { CHECK_TIMEOUT_MS } from '../../api/health/readiness';
import { LocalWorkspace } from '../../platform/local/workspace';
import { ReadinessSchema } from '../../schemas/health';
import type { Store } from '../../store/db';
import { createTestStore } from '../helpers/db';
import { connectTestEnv } from '../helpers/temporal';
import { testAppDeps } from './deps';

let store: Store;
let env: TestWorkflowEnvironment;
let root: string;
beforeAll(async () => {
  [store, env] = await Promise.all([createTestStore(), connectTestEnv()]);
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-health-ready-'));
  const ws = new LocalWorkspace({ root, user: 'lakeward' });
  await ws.createCatalog({ name: 'ready_cat' });
});
afterAll(async () => {
  await Promise.all([store?.close(), env?.teardown()]);
  rmSync(root, { recursive: true, force: true });
});

const temporal = () => ({ client: env.client, connection: env.connection, address: env.connection.options.address });
const localWorkspace: WorkspaceOpener = async () => new LocalWorkspace({ root, user: 'lakeward' });

test('ready: 200 when Temporal, the store and the default workspace answer, each with its latency', async () => {
  const app = createApp(testAppDeps({ store, temporal: temporal(), open: localWorkspace }));
  const res = await request(app).get('/api/health/ready').expect(200);
  expect(ReadinessSchema.parse(res.body)).toEqual(res.body);
  expect(res.body.status).toBe('ready');
  const { temporal: t, store: s, workspace: w } = res.body.checks;
  expect(t).toMatchObject({ ok: true, detail: expect.stringContaining(env.connection.options.address) });
  expect(s).toMatchObject({ ok: true, detail: `${store.driver} store answers` });
  expect(w).toMatchObject({ ok: true, detail: 'local lakehouse answers (1 catalogs)' });
  for (const check of [t, s, w]) {
    expect(check.latency_ms).toBeGreaterThanOrEqual(0);
    expect(check.latency_ms).toBeLessThan(CHECK_TIMEOUT_MS);
  }
  expect(res.headers['cache-control']).toBe('no-store');
});

test('not ready: 503 naming Temporal when it is not connected, the other checks still reported', async () => {
  const app = createApp(testAppDeps({ store, temporal: null, open: localWorkspace }));
  const res = await request(app).get('/api/health/ready').expect(503);
  expect(res.body.status).toBe('not_ready');
  expect(res.body.checks.temporal).toMatchObject({ ok: false, detail: 'no Temporal connection configured' });
  expect(res.body.checks.store.ok).toBe(true);
  expect(res.body.checks.workspace.ok).toBe(true);
});

test('not ready: 503 naming the store when it does not answer', async () => {
  const closed = await createTestStore('pglite');
  await closed.close();
  const app = createApp(testAppDeps({ store: closed, temporal: temporal(), open: localWorkspace }));
  const res = await request(app).get('/api/health/ready').expect(503);
  expect(res.body.checks.store).toMatchObject({ ok: false, detail: 'pglite store is not answering' });
  expect(res.body.checks.temporal.ok).toBe(true);
});

test('not ready: 503 naming the workspace when it cannot be opened, with the reason', async () => {
  const refuse: WorkspaceOpener = async () => Promise.reject(new Error('workspace host refused the connection'));
  const app = createApp(testAppDeps({ store, temporal: temporal(), open: refuse }));
  const res = await request(app).get('/api/health/ready').expect(503);
  expect(res.body.checks.workspace).toMatchObject({ ok: false, detail: 'workspace host refused the connection' });
  expect(res.body.checks.temporal.ok).toBe(true);
  expect(res.body.checks.store.ok).toBe(true);
});

test('not ready: a workspace that never answers fails its check at the timeout instead of hanging the probe', async () => {
  const hanging: WorkspaceOpener = async () => {
    const ws = new LocalWorkspace({ root, user: 'lakeward' });
    return Object.assign(Object.create(ws) as LocalWorkspace, { listCatalogs: () => new Promise<never>(() => {}) });
  };
  const app = createApp(testAppDeps({ store, temporal: temporal(), open: hanging }));
  const started = Date.now();
  const res = await request(app).get('/api/health/ready').expect(503);
  expect(Date.now() - started).toBeLessThan(CHECK_TIMEOUT_MS + 1500);
  expect(res.body.checks.workspace).toMatchObject({
    ok: false,
    detail: `no answer within ${CHECK_TIMEOUT_MS} ms`,
  });
  expect(res.body.checks.workspace.latency_ms).toBeGreaterThanOrEqual(CHECK_TIMEOUT_MS - 5);
});

test('with an API key configured, ready answers without a key; other methods on it still need the key', async () => {
  const key = 'k3y-for-ready';
  const app = createApp(testAppDeps({ store, temporal: temporal(), open: localWorkspace, flags: { apiKey: key } }));
  for (const p of ['/api/health/ready', '/api/health/ready/', '/API/Health/Ready']) {
    const res = await request(app).get(p).expect(200);
    expect(JSON.stringify(res.body)).not.toContain(key);
  }
  await request(app).post('/api/health/ready').expect(401);
  await request(app).get('/api/health/ready-x').expect(401);
  await request(app).get('/api/health/ready/../../templates').expect(401);
});

test('the OpenAPI document lists ready as open, with its 200 and 503 bodies', async () => {
  const res = await request(createApp(testAppDeps({ store })))
    .get('/api/openapi.json')
    .expect(200);
  const op = res.body.paths['/api/health/ready'].get;
  expect(op.security).toEqual([]);
  expect(Object.keys(op.responses).sort()).toEqual(['200', '503']);
  expect(op.responses['503'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Readiness' });
});
