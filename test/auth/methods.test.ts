import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../api/app';
import { parseDatabricksCfg } from '../../platform/databricks/auth/databrickscfg';
import { AZURE_DATABRICKS_RESOURCE } from '../../platform/databricks/auth/token-source';
import type { Store } from '../../store/db';
import { LogCapture, testAppDeps } from '../api/deps';
import { StubServer } from '../databricks/stub-server';
import { createTestStore } from '../helpers/db';

const PAT = 'dapiaaaabbbbccccddddeeeeffff00001111';
const CLI_TOKEN = 'cli-oauth-access-token-9876';
const ENTRA_SECRET = 'entra-planted-secret-4242';
const dir = mkdtempSync(path.join(tmpdir(), 'lakeward-auth-methods-'));
const accepted = new Set([`Bearer ${PAT}`, `Bearer ${CLI_TOKEN}`, 'Bearer entra-access', 'Bearer app-access']);

let store: Store;
let ws: StubServer;
const saved = { ...process.env };

beforeAll(async () => {
  store = await createTestStore();
  ws = await new StubServer()
    .on('GET /api/2.0/preview/scim/v2/Me', (req) =>
      accepted.has(String(req.headers.authorization))
        ? { json: { userName: 'grace@example.com' } }
        : { status: 401, json: { error_code: 'UNAUTHENTICATED', message: 'Invalid access token.' } },
    )
    .on('POST /tenant-1/oauth2/v2.0/token', (req) => {
      const form = new URLSearchParams(req.body.toString());
      const ok =
        form.get('client_secret') === ENTRA_SECRET &&
        form.get('grant_type') === 'client_credentials' &&
        form.get('scope') === `${AZURE_DATABRICKS_RESOURCE}/.default`;
      return ok
        ? { json: { access_token: 'entra-access', expires_in: 3600 } }
        : { status: 401, json: { error: 'invalid_client' } };
    })
    .on('POST /oidc/v1/token', (req) =>
      req.headers.authorization === `Basic ${Buffer.from('app-sp:app-secret-123456').toString('base64')}`
        ? { json: { access_token: 'app-access', expires_in: 3600 } }
        : { status: 401, json: { error: 'invalid_client' } },
    )
    .start();
  // A .databrickscfg as `databricks configure` / `databricks auth login` write it, with a dotted profile name.
  writeFileSync(
    path.join(dir, 'databrickscfg'),
    [
      '; The profile defined in the DEFAULT section is to be used as a fallback when no profile is explicitly specified.',
      '[DEFAULT]',
      `host  = ${ws.url}`,
      `token = ${PAT}`,
      '',
      '[team.prod]',
      `host      = ${ws.url}`,
      'auth_type = databricks-cli',
      '',
    ].join('\n'),
  );
  // The Databricks CLI's `auth token` as the SDKs call it: prints the token JSON for the host it is asked about.
  const cli = path.join(dir, 'databricks');
  writeFileSync(
    cli,
    `#!/bin/sh\n[ "$1 $2 $3" = "auth token --host" ] && [ "$4" = "${ws.url}" ] || { echo "unexpected: $*" >&2; exit 1; }\n` +
      `echo '{"access_token":"${CLI_TOKEN}","token_type":"Bearer","expiry":"2099-01-01T00:00:00Z"}'\n`,
  );
  chmodSync(cli, 0o755);
  process.env.DATABRICKS_CONFIG_FILE = path.join(dir, 'databrickscfg');
  process.env.DATABRICKS_CLI_PATH = cli;
});
afterAll(async () => {
  process.env = saved;
  await ws?.stop();
  await store?.close();
});

function app() {
  const logs = new LogCapture();
  const deps = testAppDeps({ store, logs, flags: { dataDir: dir } });
  deps.config.auth.azure_authority_host = ws.url;
  return { app: createApp(deps), logs };
}

test('a CLI-written .databrickscfg parses: a dotted section stays one profile', () => {
  const profiles = parseDatabricksCfg(
    `[a.b]\nhost = https://x.cloud.databricks.com\n[c]\nhost=https://y\nflag = true\n`,
  );
  expect([...profiles.keys()]).toEqual(['a.b', 'c']);
  expect(profiles.get('c')).toEqual({ host: 'https://y', flag: 'true' });
});

test('profiles lists the CLI profiles; use-profile signs in with a token profile and a databricks-cli one', async () => {
  const { app: a, logs } = app();
  const list = await request(a).get('/api/auth/profiles').expect(200);
  expect(list.body.profiles).toEqual([
    { name: 'DEFAULT', host: ws.url, auth_type: 'pat' },
    { name: 'team.prod', host: ws.url, auth_type: 'databricks-cli' },
  ]);
  const pat = await request(a).post('/api/auth/use-profile').send({ profile_name: 'DEFAULT' }).expect(200);
  expect(pat.body).toMatchObject({ authenticated: true, user: 'grace@example.com', auth_method: 'cli-profile' });
  const cli = await request(a).post('/api/auth/use-profile').send({ profile_name: 'team.prod' }).expect(200);
  expect(cli.body).toMatchObject({ authenticated: true, auth_method: 'cli-profile' });
  expect(ws.seen.at(-1)?.headers.authorization).toBe(`Bearer ${CLI_TOKEN}`);
  await request(a).post('/api/auth/use-profile').send({ profile_name: 'nope' }).expect(404);
  const text = JSON.stringify([list.body, pat.body, cli.body]) + logs.text();
  for (const s of [PAT, CLI_TOKEN]) expect(text).not.toContain(s);
});

test('env-vars shows each variable with secrets masked to at most 4 characters', async () => {
  process.env.DATABRICKS_HOST = 'https://dbc-1.cloud.databricks.com';
  process.env.DATABRICKS_TOKEN = PAT;
  process.env.ARM_CLIENT_SECRET = ENTRA_SECRET;
  process.env.ARM_TENANT_ID = 'tenant-1';
  const res = await request(app().app).get('/api/auth/env-vars').expect(200);
  expect(res.body).toMatchObject({
    DATABRICKS_HOST: 'https://dbc-1.cloud.databricks.com',
    DATABRICKS_TOKEN: '****1111',
    ARM_CLIENT_SECRET: '****4242',
    ARM_TENANT_ID: 'tenant-1',
    AZURE_CLIENT_SECRET: null,
    DATABRICKS_CLIENT_ID: null,
  });
  expect(JSON.stringify(res.body)).not.toContain(PAT.slice(0, 8));
  delete process.env.DATABRICKS_TOKEN;
  delete process.env.ARM_CLIENT_SECRET;
  delete process.env.DATABRICKS_HOST;
});

test('Entra ID service principal: the tenant token endpoint is asked for the Azure Databricks scope', async () => {
  const { app: a, logs } = app();
  const res = await request(a)
    .post('/api/auth/service-principal')
    .send({ host: ws.url, client_id: 'c1', client_secret: ENTRA_SECRET, tenant_id: 'tenant-1', auth_type: 'cloud' })
    .expect(200);
  expect(res.body).toMatchObject({ authenticated: true, auth_method: 'azure-service-principal' });
  await request(a)
    .post('/api/auth/service-principal')
    .send({ host: ws.url, client_id: 'c1', client_secret: 'nope', tenant_id: 'tenant-1', auth_type: 'cloud' })
    .expect(401);
  expect(JSON.stringify(res.body) + logs.text()).not.toContain(ENTRA_SECRET);
});

test('auto-login is a 404 outside Databricks Apps and signs in as the app principal inside', async () => {
  const { app: a } = app();
  const outside = await request(a).get('/api/auth/auto-login').expect(404);
  expect(outside.body.error.message).toContain('Not running as a Databricks App');
  Object.assign(process.env, {
    DATABRICKS_APP_NAME: 'lakeward',
    DATABRICKS_HOST: ws.url,
    DATABRICKS_CLIENT_ID: 'app-sp',
    DATABRICKS_CLIENT_SECRET: 'app-secret-123456',
  });
  try {
    const inside = await request(a).get('/api/auth/auto-login').expect(200);
    expect(inside.body).toMatchObject({ authenticated: true, user: 'grace@example.com', auth_method: 'hosted-app' });
    expect(JSON.stringify(inside.body)).not.toContain('app-secret-123456');
  } finally {
    for (const k of ['DATABRICKS_APP_NAME', 'DATABRICKS_HOST', 'DATABRICKS_CLIENT_ID', 'DATABRICKS_CLIENT_SECRET'])
      delete process.env[k];
  }
});
