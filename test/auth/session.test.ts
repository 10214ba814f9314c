import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Router } from 'express';
import request from 'supertest';
import { createApp, routeModules } from '../../api/app';
import type { RouteModule, WorkspaceSpec } from '../../api/deps';
import type { Workspace } from '../../platform/port';
import { authSessions } from '../../store/schema';
import type { Store } from '../../store/db';
import { LogCapture, testAppDeps } from '../api/deps';
import { StubServer } from '../databricks/stub-server';
import { createTestStore } from '../helpers/db';

const TOKEN = 'dapi0123456789abcdef0123456789abcdef';
const SECRET = 'dose-planted-client-secret-77';
const ME = 'GET /api/2.0/preview/scim/v2/Me';

let store: Store;
let scim: StubServer;
const dataDir = mkdtempSync(path.join(tmpdir(), 'lakeward-auth-'));

beforeAll(async () => {
  store = await createTestStore();
  scim = await new StubServer()
    .on(ME, (req) =>
      req.headers.authorization === `Bearer ${TOKEN}` || req.headers.authorization === 'Bearer m2m-access'
        ? { json: { userName: 'ada@example.com', displayName: 'Ada' } }
        : { status: 401, json: { error_code: 'UNAUTHENTICATED', message: 'Invalid access token.' } },
    )
    .on('POST /oidc/v1/token', (req) =>
      req.headers.authorization === `Basic ${Buffer.from(`sp-1:${SECRET}`).toString('base64')}`
        ? { json: { access_token: 'm2m-access', expires_in: 3600 } }
        : { status: 401, json: { error: 'invalid_client' } },
    )
    .start();
});
afterAll(async () => {
  await scim?.stop();
  await store?.close();
});

const opened: WorkspaceSpec[] = [];
const whoami: RouteModule = {
  name: 'whoami',
  router: (deps) =>
    Router().get('/whoami', async (req, res) => {
      const ws = await deps.workspaces.resolve(req);
      res.json({ kind: ws.kind, id: ws.id });
    }),
};

/** A fresh app over the shared store and data folder: what an API restart gives. */
function app(opts: { keys?: boolean } = {}) {
  const logs = new LogCapture();
  const open = async (spec: WorkspaceSpec) => {
    opened.push(spec);
    return {
      kind: spec.kind,
      id: spec.kind === 'local' ? spec.root : spec.host,
      close: async () => {},
    } as unknown as Workspace;
  };
  const deps = testAppDeps({ store, logs, open, flags: { dataDir } });
  if (opts.keys) deps.config.api_server.keys = [{ name: 'ops', key: 'k-editor', key_env: null, role: 'editor' }];
  return { app: createApp(deps, [...routeModules, whoami]), logs };
}

const cookieOf = (res: request.Response) => (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0];

test('PAT login checks SCIM Me, sets an HttpOnly cookie, and the session survives an API restart', async () => {
  const first = app();
  const login = await request(first.app).post('/api/auth/login').send({ host: scim.url, token: TOKEN }).expect(200);
  expect(login.body).toMatchObject({
    authenticated: true,
    user: 'ada@example.com',
    host: scim.url,
    auth_method: 'pat',
  });
  const setCookie = (login.headers['set-cookie'] as unknown as string[])[0];
  expect(setCookie).toMatch(/^lakeward\.sid=/);
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Lax/i);
  const { absolute_expires_at, idle_expires_at } = login.body.session;
  const hours = (iso: string) => (Date.parse(iso) - Date.now()) / 3_600_000;
  expect(hours(idle_expires_at)).toBeCloseTo(12, 0);
  expect(hours(absolute_expires_at)).toBeCloseTo(7 * 24, 0);

  const restarted = app();
  const status = await request(restarted.app).get('/api/auth/status').set('Cookie', cookieOf(login)).expect(200);
  expect(status.body).toMatchObject({ authenticated: true, user: 'ada@example.com', auth_method: 'pat' });
  // The signed-in workspace is the one requests use.
  const ws = await request(restarted.app).get('/api/whoami').set('Cookie', cookieOf(login)).expect(200);
  expect(ws.body).toEqual({ kind: 'databricks', id: scim.url });
  expect(opened.at(-1)).toMatchObject({ kind: 'databricks', host: scim.url, authMethod: 'token', token: TOKEN });

  // At rest: no row holds the token, the user or the session id in the clear.
  const rows = await store.db.select().from(authSessions);
  expect(rows.length).toBeGreaterThan(0);
  const text = JSON.stringify(rows);
  for (const planted of [TOKEN, 'ada@example.com', decodeURIComponent(cookieOf(login)).slice(14, 46)]) {
    expect(text).not.toContain(planted);
  }
  for (const row of rows) expect(row.envelope).toMatchObject({ alg: 'aes-256-gcm' });
  for (const res of [login, status])
    expect(JSON.stringify(res.body) + JSON.stringify(res.headers)).not.toContain(TOKEN);
  expect(first.logs.text() + restarted.logs.text()).not.toContain(TOKEN);

  const out = await request(restarted.app).post('/api/auth/logout').set('Cookie', cookieOf(login)).expect(200);
  expect(out.body).toEqual({ status: 'ok', message: 'Signed out; the session has ended' });
  const after = await request(first.app).get('/api/auth/status').set('Cookie', cookieOf(login)).expect(200);
  expect(after.body).toMatchObject({ auth_method: 'local', session: null });
  const ws2 = await request(first.app).get('/api/whoami').set('Cookie', cookieOf(login)).expect(200);
  expect(ws2.body.kind).toBe('local');
});

test('a refused token is a 401 that repeats no secret and starts no session', async () => {
  const { app: a, logs } = app();
  const bad = 'dapiffffffffffffffffffffffffffffffff';
  const res = await request(a).post('/api/auth/login').send({ host: scim.url, token: bad }).expect(401);
  expect(res.body.error.code).toBe('UNAUTHORIZED');
  expect(res.headers['set-cookie']).toBeUndefined();
  expect(JSON.stringify(res.body) + logs.text()).not.toContain(bad);
  const missing = await request(a).post('/api/auth/login').send({ host: scim.url }).expect(400);
  expect(JSON.stringify(missing.body)).toContain('token');
});

test('OAuth M2M service principal: the token endpoint gets Basic client credentials, then SCIM Me the access token', async () => {
  const { app: a, logs } = app();
  const res = await request(a)
    .post('/api/auth/service-principal')
    .send({ host: scim.url, client_id: 'sp-1', client_secret: SECRET })
    .expect(200);
  expect(res.body).toMatchObject({ authenticated: true, user: 'ada@example.com', auth_method: 'oauth-m2m' });
  const rows = JSON.stringify(await store.db.select().from(authSessions));
  expect(rows + JSON.stringify(res.body) + logs.text()).not.toContain(SECRET);
  await request(a)
    .post('/api/auth/service-principal')
    .send({ host: scim.url, client_id: 'sp-1', client_secret: 'wrong' })
    .expect(401);
  const cloud = await request(a)
    .post('/api/auth/service-principal')
    .send({ host: scim.url, client_id: 'sp-1', client_secret: SECRET, auth_type: 'cloud' })
    .expect(422);
  expect(cloud.body.error.details).toEqual([{ path: 'body.tenant_id', message: 'required when auth_type is cloud' }]);
});

test('with API keys on, a session without a key is the viewer role; a key still wins', async () => {
  const { app: a } = app({ keys: true });
  await request(a).get('/api/whoami').expect(401);
  const login = await request(a).post('/api/auth/login').send({ host: scim.url, token: TOKEN }).expect(200);
  const cookie = cookieOf(login);
  await request(a).get('/api/whoami').set('Cookie', cookie).expect(200);
  // An editor route refuses the session's viewer role, and names it; the editor key may.
  const denied = await request(a).post('/api/governance/glossary').set('Cookie', cookie).send({}).expect(403);
  expect(denied.body.error.message).toContain('session:ada@example.com has the viewer role');
  await request(a).post('/api/governance/glossary').set('Authorization', 'Bearer k-editor').send({}).expect(400);
  const key = await request(a).get('/api/auth/status').set('Authorization', 'Bearer k-editor').expect(200);
  expect(key.body.auth_method).toBe('local');
});
