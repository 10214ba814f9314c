import { Router } from 'express';
import request from 'supertest';
import { createApp, routeModules } from '../../api/app';
import type { RouteModule, WorkspaceSpec } from '../../api/deps';
import type { Workspace } from '../../platform/port';
import type { Store } from '../../store/db';
import { createTestStore } from '../helpers/db';
import { LogCapture, testAppDeps } from './deps';

let store: Store;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(async () => {
  await store?.close();
});

/** Stands in for a live Databricks workspace (the one thing tests may not reach): records what was opened. */
function recordingOpener() {
  const opened: WorkspaceSpec[] = [];
  const closed: string[] = [];
  const open = async (spec: WorkspaceSpec) => {
    opened.push(spec);
    const id = spec.kind === 'local' ? spec.root : spec.host;
    return { kind: spec.kind, id, close: async () => void closed.push(id) } as unknown as Workspace;
  };
  return { open, opened, closed };
}

const whoami: RouteModule = {
  name: 'whoami',
  router: (deps) =>
    Router().get('/whoami', async (req, res) => {
      const ws = await deps.workspaces.resolve(req);
      res.json({ kind: ws.kind, id: ws.id });
    }),
};

function setup() {
  const rec = recordingOpener();
  const logs = new LogCapture();
  const deps = testAppDeps({ store, open: rec.open, logs, flags: { dataDir: '/tmp/lakeward-ws-test' } });
  return { app: createApp(deps, [...routeModules, whoami]), deps, logs, ...rec };
}

test('without workspace headers a request uses the configured local workspace, opened once', async () => {
  const { app, opened } = setup();
  const res = await request(app).get('/api/whoami').expect(200);
  expect(res.body).toEqual({ kind: 'local', id: '/tmp/lakeward-ws-test/workspace' });
  await request(app).get('/api/whoami').expect(200);
  expect(opened).toHaveLength(1);
});

test('X-Databricks-Host/Token select that workspace and the token never reaches the logs', async () => {
  const { app, opened, logs } = setup();
  const res = await request(app)
    .get('/api/whoami')
    .set('X-Databricks-Host', 'adb-123.azuredatabricks.net/')
    .set('X-Databricks-Token', 'dapi-very-secret')
    .expect(200);
  expect(res.body).toEqual({ kind: 'databricks', id: 'https://adb-123.azuredatabricks.net' });
  expect(opened[0]).toMatchObject({ kind: 'databricks', token: 'dapi-very-secret', authMethod: 'token' });
  expect(logs.text()).toContain('/api/whoami');
  expect(logs.text()).not.toContain('dapi-very-secret');
});

test('X-Platform-* headers are accepted as aliases and the same credentials reuse one workspace', async () => {
  const { app, opened } = setup();
  for (let i = 0; i < 2; i++) {
    await request(app)
      .get('/api/whoami')
      .set('X-Platform-Host', 'https://dbc-1.cloud.databricks.com')
      .set('X-Platform-Token', 't1')
      .expect(200);
  }
  expect(opened.map((s) => (s.kind === 'databricks' ? s.host : s.root))).toEqual([
    'https://dbc-1.cloud.databricks.com',
  ]);
});

test('a host without a token is a 400 naming the missing header', async () => {
  const { app } = setup();
  const res = await request(app).get('/api/whoami').set('X-Databricks-Host', 'adb-1.net').expect(400);
  expect(res.body.error.details).toEqual([
    { path: 'headers.x-databricks-token', message: 'required when the other workspace header is sent' },
  ]);
});

test('closing the resolver closes every workspace it opened', async () => {
  const { app, deps, closed } = setup();
  await request(app).get('/api/whoami').expect(200);
  await request(app).get('/api/whoami').set('X-Databricks-Host', 'h.net').set('X-Databricks-Token', 't').expect(200);
  await deps.workspaces.close();
  expect(closed.sort()).toEqual(['/tmp/lakeward-ws-test/workspace', 'https://h.net']);
});
