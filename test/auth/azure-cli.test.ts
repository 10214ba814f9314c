import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { createApp } from '../../api/app';
import { startServer } from '../../api/server';
import { AZURE_DATABRICKS_RESOURCE } from '../../platform/databricks/auth/token-source';
import type { Store } from '../../store/db';
import { authSessions } from '../../store/schema';
import { LogCapture, testAppDeps } from '../api/deps';
import { StubServer } from '../databricks/stub-server';
import { createTestStore } from '../helpers/db';

const ARM_TOKEN = 'arm-planted-token-0123456789abcdef';
const ARM_TENANT_TOKEN = 'arm-tenant2-planted-token-fedcba98';
const DBX_TOKEN = 'entra-dbx-planted-token-13572468';
const dir = mkdtempSync(path.join(tmpdir(), 'lakeward-az-'));
const signedOut = path.join(dir, 'signed-out');

let store: Store;
let stub: StubServer;
const saved = { ...process.env };

beforeAll(async () => {
  store = await createTestStore();
  const armOk = (token: string) => (req: { headers: Record<string, unknown>; query: Record<string, string> }) =>
    req.headers.authorization === `Bearer ${token}`;
  stub = await new StubServer()
    .on('GET /tenants', (req) =>
      armOk(ARM_TOKEN)(req) && req.query['api-version'] === '2022-12-01'
        ? {
            json: {
              value: [{ tenantId: 't1', displayName: 'Contoso', defaultDomain: 'contoso.com' }],
              nextLink: `${stub.url}/tenants-page-2?api-version=2022-12-01`,
            },
          }
        : { status: 401, json: { error: { code: 'InvalidAuthenticationToken' } } },
    )
    .on('GET /tenants-page-2', { json: { value: [{ tenantId: 't2' }] } })
    .on('GET /subscriptions', (req) =>
      armOk(ARM_TENANT_TOKEN)(req)
        ? { json: { value: [{ subscriptionId: 's-2', displayName: 'Dev', state: 'Enabled', tenantId: 't2' }] } }
        : { status: 403, json: { error: { code: 'AuthorizationFailed' } } },
    )
    .on('GET /subscriptions/s-1/providers/Microsoft.Databricks/workspaces', (req) =>
      armOk(ARM_TOKEN)(req) && req.query['api-version'] === '2024-05-01'
        ? {
            json: {
              value: [
                {
                  id: '/subscriptions/s-1/resourceGroups/rg-data/providers/Microsoft.Databricks/workspaces/lake',
                  name: 'lake',
                  location: 'westeurope',
                  properties: { workspaceUrl: 'adb-1.11.azuredatabricks.net' },
                },
              ],
            },
          }
        : { status: 401, json: {} },
    )
    .on('GET /api/2.0/preview/scim/v2/Me', (req) =>
      req.headers.authorization === `Bearer ${DBX_TOKEN}`
        ? { json: { userName: 'mo@contoso.com' } }
        : { status: 401, json: { message: 'Invalid access token.' } },
    )
    .start();
  // `az account get-access-token` as the Azure CLI answers it: a token per resource (and tenant).
  const az = path.join(dir, 'az');
  writeFileSync(
    az,
    [
      '#!/bin/sh',
      `[ -e "${signedOut}" ] && { echo "ERROR: Please run 'az login' to setup account." >&2; exit 1; }`,
      '[ "$1 $2 $3" = "account get-access-token --resource" ] || { echo "unexpected: $*" >&2; exit 2; }',
      `if [ "$4" = "${AZURE_DATABRICKS_RESOURCE}" ]; then tok=${DBX_TOKEN};`,
      `elif [ "$4" = "${stub.url}" ] && [ "$5 $6" = "--tenant t2" ]; then tok=${ARM_TENANT_TOKEN};`,
      `elif [ "$4" = "${stub.url}" ] && [ "$5" = "--output" ]; then tok=${ARM_TOKEN};`,
      'else echo "unexpected: $*" >&2; exit 2; fi',
      'echo "{\\"accessToken\\":\\"$tok\\",\\"tenant\\":\\"t1\\",\\"subscription\\":\\"s-1\\",\\"tokenType\\":\\"Bearer\\"}"',
    ].join('\n'),
  );
  chmodSync(az, 0o755);
  process.env.AZURE_CLI_PATH = az;
});
afterAll(async () => {
  process.env = saved;
  await stub?.stop();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function app() {
  const logs = new LogCapture();
  const deps = testAppDeps({ store, logs, flags: { dataDir: dir } });
  deps.config.auth.azure_management_url = stub.url;
  return { app: createApp(deps), logs };
}

test('the wizard: CLI login, tenants (every page), subscriptions of a tenant, workspaces, connect', async () => {
  const { app: a, logs } = app();
  const agent = request.agent(a);
  const login = await agent.post('/api/auth/cloud-login').expect(200);
  expect(login.body).toEqual({
    status: 'ok',
    message: 'the Azure CLI is signed in',
    tenant_id: 't1',
    subscription_id: 's-1',
  });
  const tenants = await agent.get('/api/auth/cloud/tenants').expect(200);
  expect(tenants.body.tenants).toEqual([
    { tenant_id: 't1', display_name: 'Contoso', default_domain: 'contoso.com' },
    { tenant_id: 't2', display_name: null, default_domain: null },
  ]);
  const subs = await agent.get('/api/auth/cloud/subscriptions?tenant_id=t2').expect(200);
  expect(subs.body.subscriptions).toEqual([
    { subscription_id: 's-2', display_name: 'Dev', state: 'Enabled', tenant_id: 't2' },
  ]);
  const wss = await agent.get('/api/auth/cloud/workspaces?subscription_id=s-1').expect(200);
  expect(wss.body.workspaces).toEqual([
    {
      name: 'lake',
      host: 'https://adb-1.11.azuredatabricks.net',
      location: 'westeurope',
      resource_group: 'rg-data',
      id: '/subscriptions/s-1/resourceGroups/rg-data/providers/Microsoft.Databricks/workspaces/lake',
    },
  ]);
  await agent.get('/api/auth/cloud/workspaces').expect(400);

  const connected = await agent.post('/api/auth/cloud/connect').send({ host: stub.url }).expect(200);
  expect(connected.body).toMatchObject({ authenticated: true, user: 'mo@contoso.com', auth_method: 'azure-cli' });
  expect((await agent.get('/api/auth/status').expect(200)).body).toMatchObject({
    auth_method: 'azure-cli',
    host: stub.url,
  });

  const rows = await store.db.select().from(authSessions);
  const text = JSON.stringify([login.body, tenants.body, subs.body, wss.body, connected.body, rows]) + logs.text();
  for (const s of [ARM_TOKEN, ARM_TENANT_TOKEN, DBX_TOKEN]) expect(text).not.toContain(s);
});

test('a signed-out Azure CLI is a 502 saying to run az login; Azure refusing is a 502 too', async () => {
  const { app: a } = app();
  writeFileSync(signedOut, '');
  try {
    const r = await request(a).post('/api/auth/cloud-login').expect(502);
    expect(r.body.error.code).toBe('CLOUD_REFUSED');
    expect(r.body.error.message).toMatch(/az login/);
  } finally {
    rmSync(signedOut);
  }
  expect(existsSync(signedOut)).toBe(false);
  // The default tenant's token is not good for listing subscriptions on this stub.
  const refused = await request(a).get('/api/auth/cloud/subscriptions').expect(502);
  expect(refused.body.error.message).toMatch(/refused \/subscriptions/);
});

test('lakeward auth cloud workspaces --json shows what the API does', async () => {
  const deps = testAppDeps({ store, flags: { dataDir: dir } });
  deps.config.auth.azure_management_url = stub.url;
  const server = await startServer(deps, { host: '127.0.0.1', port: 0 });
  const tsx = path.resolve(__dirname, '../../node_modules/.bin/tsx');
  const cli = async (...args: string[]) =>
    (
      await promisify(execFile)(
        tsx,
        [path.resolve(__dirname, '../../cli/main.ts'), 'auth', ...args, '--url', server.url],
        {
          encoding: 'utf8',
        },
      )
    ).stdout;
  try {
    const api = (await request(createApp(deps)).get('/api/auth/cloud/workspaces?subscription_id=s-1').expect(200)).body;
    expect(JSON.parse(await cli('cloud', 'workspaces', '--subscription', 's-1', '--json'))).toEqual(api);
    expect(await cli('cloud', 'tenants')).toMatch(/t1\s+Contoso\s+contoso\.com/);
  } finally {
    await server.close(500);
  }
}, 60_000);
