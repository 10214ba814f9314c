import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { WorkspaceSpec } from '../../api/deps';
import { targets } from '../../store/schema';
import type { Store } from '../../store/db';
import { KEY_FILE } from '../../store/targets/cipher';
import { openPlatformWorkspace } from '../../workers/open-workspace';
import { createTestStore } from '../helpers/db';
import { StubServer } from '../databricks/stub-server';
import { LogCapture, testAppDeps } from '../api/deps';

const TOKEN = 'dapi-planted-secret-7f3a9c';
const SP_SECRET = 'sp-planted-secret-41b2';

let store: Store;
let stub: StubServer;
let dataDir: string;
const logs = new LogCapture();
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  store = await createTestStore();
  stub = await new StubServer().start();
  stub.on('GET /api/2.0/preview/scim/v2/Me', (req) =>
    req.headers.authorization === `Bearer ${TOKEN}`
      ? { json: { userName: 'ana@example.com', displayName: 'Ana' } }
      : { status: 401, json: { error_code: 'UNAUTHENTICATED', message: 'bad token' } },
  );
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'lw-targets-'));
  // Stands in for the live workspace: the target's https host is answered by the local stub.
  const open = (spec: WorkspaceSpec) =>
    openPlatformWorkspace(spec.kind === 'databricks' ? { ...spec, host: stub.url } : spec);
  app = createApp(testAppDeps({ store, open, logs, flags: { dataDir } }));
});
afterAll(async () => {
  await stub?.stop();
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const westBody = {
  name: 'dr-west',
  host: 'https://adb-1234.5.azuredatabricks.net/',
  auth_method: 'token',
  token: TOKEN,
  warehouse_id: 'wh1west',
};

test('create, read, update and delete a saved target; credentials never come back', async () => {
  const created = await request(app).post('/api/targets').send(westBody).expect(201);
  expect(created.body).toMatchObject({
    name: 'dr-west',
    host: 'https://adb-1234.5.azuredatabricks.net',
    auth_method: 'token',
    warehouse_id: 'wh1west',
    data_sync_mode: 'snapshot_once',
    auto_handle_masks: false,
    keep_share: false,
    credentials_set: ['token'],
  });
  await request(app).post('/api/targets').send(westBody).expect(409);

  const listed = await request(app).get('/api/targets').expect(200);
  expect(listed.body.map((t: { name: string }) => t.name)).toEqual(['dr-west']);
  await request(app).get('/api/targets/dr-west').expect(200);
  await request(app).get('/api/targets/nope').expect(404);

  // An update without credentials keeps the sealed ones: whoami still authenticates with the token.
  const updated = await request(app)
    .put('/api/targets/dr-west')
    .send({ data_sync_mode: 'incremental', auto_handle_masks: true, keep_share: true })
    .expect(200);
  expect(updated.body).toMatchObject({ data_sync_mode: 'incremental', keep_share: true, credentials_set: ['token'] });
  const me = await request(app).post('/api/target/whoami').send({ name: 'dr-west' }).expect(200);
  expect(me.body).toEqual({
    name: 'dr-west',
    host: 'https://adb-1234.5.azuredatabricks.net',
    auth_method: 'token',
    user_name: 'ana@example.com',
    display_name: 'Ana',
  });
  const seen = stub.seen.filter((r) => r.path === '/api/2.0/preview/scim/v2/Me');
  expect(seen.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  await request(app).post('/api/target/whoami').send({ name: 'ghost' }).expect(404);

  // Switching to a service principal needs its credentials in the same request.
  const bad = await request(app).put('/api/targets/dr-west').send({ auth_method: 'service_principal' }).expect(400);
  expect(JSON.stringify(bad.body)).toMatch(/client_id/);
  await request(app)
    .put('/api/targets/dr-west')
    .send({ auth_method: 'service_principal', client_id: 'app-1', client_secret: SP_SECRET })
    .expect(200);

  await request(app).delete('/api/targets/dr-west').expect(200);
  await request(app).delete('/api/targets/dr-west').expect(404);
});

test('bad input is refused naming the field', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ ...westBody, name: 'has space' }, 'name'],
    [{ ...westBody, name: 'plain-http', host: 'http://adb.example.com' }, 'host'],
    [{ ...westBody, name: 'no-warehouse', warehouse_id: undefined }, 'warehouse_id'],
    [{ ...westBody, name: 'bad-warehouse', warehouse_id: 'wh-1' }, 'warehouse_id'],
    [{ ...westBody, name: 'no-token', token: undefined }, 'token'],
    [{ ...westBody, name: 'bad-mode', data_sync_mode: 'sometimes' }, 'data_sync_mode'],
    [{ ...westBody, name: 'sp', auth_method: 'service_principal', token: undefined }, 'client_id'],
  ];
  for (const [body, field] of cases) {
    const res = await request(app).post('/api/targets').send(body).expect(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path).join(' ')).toContain(`body.${field}`);
  }
});

test('planted secrets appear in no store row, API response or log line; the key file is private', async () => {
  const responses: string[] = [];
  const call = async (r: request.Test) => {
    const res = await r;
    responses.push(JSON.stringify(res.body), JSON.stringify(res.headers));
    return res;
  };
  await call(
    request(app)
      .post('/api/targets')
      .send({ ...westBody, name: 'east' }),
  );
  await call(
    request(app)
      .post('/api/targets')
      .send({
        ...westBody,
        name: 'sp-east',
        auth_method: 'service_principal',
        client_id: 'a',
        client_secret: SP_SECRET,
        token: undefined,
      }),
  );
  await call(request(app).get('/api/targets'));
  await call(request(app).get('/api/targets/east'));
  await call(request(app).post('/api/target/whoami').send({ name: 'east' }));
  await call(request(app).put('/api/targets/east').send({ token: TOKEN, warehouse_id: 'wh2east' }));
  const openapi = await call(request(app).get('/api/openapi.json'));
  expect(Object.keys(openapi.body.paths)).toEqual(
    expect.arrayContaining(['/api/targets', '/api/targets/{name}', '/api/target/whoami']),
  );

  const rows = await store.db.select().from(targets);
  expect(rows.map((r) => r.name).sort()).toEqual(['east', 'sp-east']);
  expect(rows.find((r) => r.name === 'east')!.warehouseId).toBe('wh2east');
  for (const row of rows) expect(row.credentials).toMatchObject({ alg: 'aes-256-gcm' });
  const everything = [JSON.stringify(rows), ...responses, logs.text()].join('\n');
  for (const secret of [TOKEN, SP_SECRET]) expect(everything).not.toContain(secret);

  const keyFile = path.join(dataDir, KEY_FILE);
  expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  expect(readFileSync(keyFile, 'utf8').trim()).toHaveLength(44);
});
