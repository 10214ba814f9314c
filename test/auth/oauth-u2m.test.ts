import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { createApp } from '../../api/app';
import { startServer } from '../../api/server';
import type { Store } from '../../store/db';
import { authSessions } from '../../store/schema';
import { LogCapture, testAppDeps } from '../api/deps';
import { StubServer } from '../databricks/stub-server';
import { createTestStore } from '../helpers/db';

const ACCESS = 'u2m-planted-access-token-31415926';
const REFRESH = 'u2m-planted-refresh-token-27182818';
const CODE = 'auth-code-from-the-browser';
const dir = mkdtempSync(path.join(tmpdir(), 'lakeward-u2m-'));

let store: Store;
let ws: StubServer;
/** The code challenge the authorize URL carried; the token endpoint checks the verifier against it. */
let challenge = '';
const exchanges: URLSearchParams[] = [];

beforeAll(async () => {
  store = await createTestStore();
  ws = await new StubServer()
    .on('GET /oidc/.well-known/oauth-authorization-server', () => ({
      json: {
        issuer: `${ws.url}/oidc`,
        authorization_endpoint: `${ws.url}/oidc/v1/authorize`,
        token_endpoint: `${ws.url}/oidc/v1/token`,
        code_challenge_methods_supported: ['S256'],
      },
    }))
    .on('POST /oidc/v1/token', (req) => {
      const form = new URLSearchParams(req.body.toString());
      exchanges.push(form);
      const s256 = createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url');
      const ok =
        form.get('grant_type') === 'authorization_code' &&
        form.get('code') === CODE &&
        form.get('client_id') === 'lakeward-app' &&
        s256 === challenge;
      return ok
        ? { json: { access_token: ACCESS, refresh_token: REFRESH, token_type: 'Bearer', expires_in: 3600 } }
        : { status: 400, json: { error: 'invalid_grant', error_description: 'PKCE verification failed' } };
    })
    .on('GET /api/2.0/preview/scim/v2/Me', (req) =>
      req.headers.authorization === `Bearer ${ACCESS}`
        ? { json: { userName: 'ada@example.com' } }
        : { status: 401, json: { message: 'Invalid access token.' } },
    )
    .start();
});
afterAll(async () => {
  await ws?.stop();
  await store?.close();
});

function app() {
  const logs = new LogCapture();
  const deps = testAppDeps({ store, logs, flags: { dataDir: dir } });
  deps.config.auth.oauth_client_id = 'lakeward-app';
  deps.config.auth.oauth_redirect_url = 'https://lakeward.example.com/api/auth/oauth-callback';
  return { app: createApp(deps), logs };
}

test('oauth-login answers the authorize URL with PKCE S256; the callback exchanges the code and signs in', async () => {
  const { app: a, logs } = app();
  const agent = request.agent(a);
  const started = await agent.post('/api/auth/oauth-login').send({ host: ws.url }).expect(200);
  const url = new URL(started.body.auth_url);
  expect(`${url.origin}${url.pathname}`).toBe(`${ws.url}/oidc/v1/authorize`);
  expect(Object.fromEntries(url.searchParams)).toMatchObject({
    client_id: 'lakeward-app',
    response_type: 'code',
    scope: 'all-apis offline_access',
    redirect_uri: 'https://lakeward.example.com/api/auth/oauth-callback',
    code_challenge_method: 'S256',
    state: started.body.state,
  });
  challenge = url.searchParams.get('code_challenge')!;
  expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);

  // Another browser (no session) and a forged state are refused before any token request.
  await request(a).get(`/api/auth/oauth-callback?code=${CODE}&state=${started.body.state}`).expect(400);
  const forged = await agent.get(`/api/auth/oauth-callback?code=${CODE}&state=forged`).expect(400);
  expect(forged.body.error.details[0].path).toBe('query.state');
  expect(exchanges).toHaveLength(0);

  const done = await agent.get(`/api/auth/oauth-callback?code=${CODE}&state=${started.body.state}`).expect(200);
  expect(done.body).toMatchObject({ authenticated: true, user: 'ada@example.com', auth_method: 'oauth-u2m' });
  expect(exchanges).toHaveLength(1);
  expect(exchanges[0].get('redirect_uri')).toBe('https://lakeward.example.com/api/auth/oauth-callback');
  const status = await agent.get('/api/auth/status').expect(200);
  expect(status.body).toMatchObject({ user: 'ada@example.com', host: ws.url, auth_method: 'oauth-u2m' });

  // The pending login is gone: the same code cannot be replayed in this session.
  await agent.get(`/api/auth/oauth-callback?code=${CODE}&state=${started.body.state}`).expect(400);

  const rows = await store.db.select().from(authSessions);
  const text = JSON.stringify([started.body, done.body, status.body, rows]) + logs.text();
  for (const s of [ACCESS, REFRESH]) expect(text).not.toContain(s);
});

test('a wrong verifier (another login’s challenge) is refused by the workspace and the session stays signed out', async () => {
  const { app: a } = app();
  const agent = request.agent(a);
  const started = await agent.post('/api/auth/oauth-login').send({ host: ws.url }).expect(200);
  challenge = 'not-the-challenge-of-this-verifier';
  const res = await agent.get(`/api/auth/oauth-callback?code=${CODE}&state=${started.body.state}`).expect(400);
  expect(res.body.error.message).toMatch(/code exchange failed/);
  expect((await agent.get('/api/auth/status').expect(200)).body.auth_method).toBe('local');
  await request(a).post('/api/auth/oauth-login').send({ host: 'http://example.com' }).expect(400);
});

test('lakeward auth oauth-login prints the authorize URL', async () => {
  const deps = testAppDeps({ store, flags: { dataDir: dir } });
  deps.config.auth.oauth_client_id = 'lakeward-app';
  const server = await startServer(deps, { host: '127.0.0.1', port: 0 });
  try {
    const tsx = path.resolve(__dirname, '../../node_modules/.bin/tsx');
    const { stdout } = await promisify(execFile)(
      tsx,
      [path.resolve(__dirname, '../../cli/main.ts'), 'auth', 'oauth-login', '--host', ws.url, '--url', server.url],
      { encoding: 'utf8' },
    );
    const url = new URL(stdout.split('\n')[1]);
    expect(url.searchParams.get('redirect_uri')).toBe(`${server.url}/api/auth/oauth-callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  } finally {
    await server.close(500);
  }
}, 60_000);
