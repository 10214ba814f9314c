import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { createDatabricksWorkspace, credentialsFromHeaders, listProfiles } from '../../platform/databricks';
import { resolveAuth } from '../../platform/databricks/auth/credentials';
import { AZURE_DATABRICKS_RESOURCE } from '../../platform/databricks/auth/token-source';
import { InvalidInputError, InvalidWarehouseError, NotFoundError, PermissionDeniedError } from '../../platform/errors';
import { RecordingSqlSession } from './recording-session';
import { StubServer } from './stub-server';

describe('authentication methods', () => {
  let stub: StubServer;
  let dir: string;
  beforeEach(async () => {
    stub = await new StubServer().start();
    dir = mkdtempSync(join(tmpdir(), 'lakeward-dbcfg-'));
  });
  afterEach(async () => {
    await stub.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('OAuth M2M: fetches a token from /oidc/v1/token with client credentials and reuses it until expiry', async () => {
    stub
      .on('POST /oidc/v1/token', {
        json: { access_token: 'eyJhbGciOi.m2m-token-1', token_type: 'Bearer', expires_in: 3600 },
      })
      .on('GET /api/2.0/preview/scim/v2/Me', { json: { userName: 'sp-app' } });
    const ws = await createDatabricksWorkspace({
      host: stub.url,
      warehouseId: 'wh1',
      auth: { type: 'oauth-m2m', clientId: 'app-id', clientSecret: 'dose0123456789abcdef0123' },
      sqlSession: new RecordingSqlSession(),
    });
    await ws.rest.workspace.currentUser();
    await ws.rest.workspace.currentUser();
    const tokenCalls = stub.seen.filter((r) => r.path === '/oidc/v1/token');
    expect(tokenCalls).toHaveLength(1);
    expect(tokenCalls[0].headers.authorization).toBe(
      `Basic ${Buffer.from('app-id:dose0123456789abcdef0123').toString('base64')}`,
    );
    expect(Object.fromEntries(new URLSearchParams(tokenCalls[0].body.toString()))).toEqual({
      grant_type: 'client_credentials',
      scope: 'all-apis',
    });
    expect(stub.seen.filter((r) => r.path.endsWith('/Me')).map((r) => r.headers.authorization)).toEqual(
      Array(2).fill('Bearer eyJhbGciOi.m2m-token-1'),
    );
  });

  it('OAuth M2M: a rejected client secret is a permission error that does not contain the secret', async () => {
    stub.on('POST /oidc/v1/token', {
      status: 401,
      json: { error: 'invalid_client', error_description: 'bad secret dose0123456789abcdef0123' },
    });
    const resolved = await resolveAuth(stub.url, {
      type: 'oauth-m2m',
      clientId: 'app',
      clientSecret: 'dose0123456789abcdef0123',
    });
    const err = await resolved.tokens.token().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect((err as Error).message).toContain('invalid_client');
    expect((err as Error).message).not.toContain('dose0123456789abcdef0123');
  });

  it('Azure service principal: asks Entra ID of the tenant for a token scoped to Azure Databricks', async () => {
    stub.on('POST /tenant-1/oauth2/v2.0/token', { json: { access_token: 'aad-token', expires_in: '3599' } });
    const resolved = await resolveAuth('https://adb-1.azuredatabricks.net', {
      type: 'azure-service-principal',
      tenantId: 'tenant-1',
      clientId: 'cid',
      clientSecret: 'csecret',
      authorityHost: stub.url,
    });
    expect(await resolved.tokens.token()).toBe('aad-token');
    expect(Object.fromEntries(new URLSearchParams(stub.seen[0].body.toString()))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'cid',
      client_secret: 'csecret',
      scope: `${AZURE_DATABRICKS_RESOURCE}/.default`,
    });
  });

  it('CLI profile: reads DEFAULT or a named profile from a databrickscfg file', async () => {
    const file = join(dir, '.databrickscfg');
    writeFileSync(
      file,
      `; comment\n[DEFAULT]\nhost = https://dbc-1.cloud.databricks.com/\ntoken = dapiDEFAULT\n\n[sp]\nhost = ${stub.url}\nclient_id = app\nclient_secret = sec\nwarehouse_id = abc123\n`,
    );
    const def = await resolveAuth(undefined, { type: 'cli-profile', configFile: file });
    expect(def.host).toBe('https://dbc-1.cloud.databricks.com');
    expect(def.tokens.method).toBe('pat');
    expect(await def.tokens.token()).toBe('dapiDEFAULT');
    const sp = await resolveAuth(undefined, { type: 'cli-profile', profile: 'sp', configFile: file });
    expect(sp).toMatchObject({ host: stub.url, warehouseId: 'abc123' });
    expect(sp.tokens.method).toBe('oauth-m2m');
    expect(await listProfiles(file)).toEqual([
      { name: 'DEFAULT', host: 'https://dbc-1.cloud.databricks.com/' },
      { name: 'sp', host: stub.url },
    ]);
    await expect(
      resolveAuth(undefined, { type: 'cli-profile', profile: 'nope', configFile: file }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('per-request headers: X-Databricks-Host / X-Databricks-Token, X-Platform- accepted too', () => {
    expect(credentialsFromHeaders({})).toBeNull();
    const creds = credentialsFromHeaders({
      'x-databricks-host': 'adb-1.azuredatabricks.net/',
      'x-databricks-token': 'dapiXYZ',
    })!;
    expect(creds.host).toBe('https://adb-1.azuredatabricks.net');
    expect(JSON.stringify(creds)).not.toContain('dapiXYZ');
    expect(inspect(creds)).not.toContain('dapiXYZ');
    expect(
      credentialsFromHeaders({ 'x-platform-host': 'https://h.cloud.databricks.com', 'x-platform-token': 't0k' })?.host,
    ).toBe('https://h.cloud.databricks.com');
    expect(() => credentialsFromHeaders({ 'x-databricks-token': 'dapiXYZ' })).toThrow(InvalidInputError);
    expect(() =>
      credentialsFromHeaders({ 'x-databricks-host': 'http://evil.example', 'x-databricks-token': 't' }),
    ).toThrow(/https/);
  });

  it('a workspace serialises and prints without its token', async () => {
    const ws = await createDatabricksWorkspace({
      host: 'https://dbc-1.cloud.databricks.com',
      warehouseId: 'wh1',
      auth: { type: 'pat', token: 'dapiSECRET123' },
      sqlSession: new RecordingSqlSession(),
    });
    expect(JSON.stringify({ job: 1, workspace: ws })).toBe(
      '{"job":1,"workspace":{"kind":"databricks","id":"https://dbc-1.cloud.databricks.com","warehouseId":"wh1"}}',
    );
    expect(inspect(ws, { depth: 10 })).not.toContain('dapiSECRET123');
  });

  it('a missing or malformed warehouse id is an InvalidWarehouseError before any call', async () => {
    await expect(
      createDatabricksWorkspace({ host: 'https://h.cloud.databricks.com', auth: { type: 'pat', token: 't' } }),
    ).rejects.toBeInstanceOf(InvalidWarehouseError);
    await expect(
      createDatabricksWorkspace({
        host: 'https://h.cloud.databricks.com',
        warehouseId: '../x',
        auth: { type: 'pat', token: 't' },
      }),
    ).rejects.toBeInstanceOf(InvalidWarehouseError);
  });
});
