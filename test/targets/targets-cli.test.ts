import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { WorkspaceSpec } from '../../api/deps';
import { startServer, type RunningServer } from '../../api/server';
import type { Store } from '../../store/db';
import { openPlatformWorkspace } from '../../workers/open-workspace';
import { testAppDeps } from '../api/deps';
import { StubServer } from '../databricks/stub-server';
import { createTestStore } from '../helpers/db';

const run = promisify(execFile);
const TOKEN = 'dapi-cli-planted-93e1';
let store: Store;
let stub: StubServer;
let server: RunningServer;
let dir: string;

/** The real `lakeward` command against the test server, in a child process. */
const cli = async (...args: string[]) =>
  (
    await run(
      path.resolve(__dirname, '../../node_modules/.bin/tsx'),
      [path.resolve(__dirname, '../../cli/main.ts'), ...args, '--url', server.url],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, WEST_TOKEN: TOKEN } },
    )
  ).stdout;

beforeAll(async () => {
  store = await createTestStore();
  stub = await new StubServer().start();
  stub.on('GET /api/2.0/preview/scim/v2/Me', (req) =>
    req.headers.authorization === `Bearer ${TOKEN}`
      ? { json: { userName: 'ops@example.com' } }
      : { status: 401, json: { message: 'bad token' } },
  );
  dir = mkdtempSync(path.join(tmpdir(), 'lw-targets-cli-'));
  const open = (spec: WorkspaceSpec) =>
    openPlatformWorkspace(spec.kind === 'databricks' ? { ...spec, host: stub.url } : spec);
  server = await startServer(testAppDeps({ store, open, flags: { dataDir: dir } }), { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server?.close(500);
  await stub?.stop();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('lakeward targets add/list/show/whoami/update/delete; the token is read from an environment variable', async () => {
  const added = await cli(
    'targets',
    'add',
    'west',
    '--host',
    'https://adb-9.azuredatabricks.net',
    '--warehouse',
    'abc123',
    '--token-env',
    'WEST_TOKEN',
  );
  expect(added).toContain('saved west (https://adb-9.azuredatabricks.net, credentials: token)');
  const listed = await cli('targets', 'list');
  expect(listed).toMatch(/name\s+host\s+auth\s+warehouse\s+sync mode\s+credentials/);
  expect(listed).toMatch(/west\s+https:\/\/adb-9\.azuredatabricks\.net\s+token\s+abc123\s+snapshot_once\s+token/);
  expect(listed).not.toContain(TOKEN);
  expect(await cli('targets', 'whoami', 'west')).toContain('west (https://adb-9.azuredatabricks.net): ops@example.com');
  await cli('targets', 'update', 'west', '--sync-mode', 'incremental');
  const shown = JSON.parse(await cli('targets', 'show', 'west', '--json'));
  expect(shown).toMatchObject({ name: 'west', data_sync_mode: 'incremental', credentials_set: ['token'] });
  expect(await cli('targets', 'delete', 'west')).toContain('deleted west');
  expect(await cli('targets', 'list')).toContain('no saved targets');
}, 120_000);

test('lakeward streams list and multi-clone talk to their endpoints', async () => {
  expect(await cli('streams', 'list')).toContain('no streams');
  expect(JSON.parse(await cli('streams', 'list', '--json'))).toEqual([]);
  // The API's refusal (no catalog prod in this server's workspace) reaches the user as the command's error.
  await expect(cli('multi-clone', 'prod', 'dev_a', 'dev_b')).rejects.toMatchObject({
    stderr: expect.stringMatching(/NOT_FOUND.*catalog prod does not exist/),
  });
}, 120_000);
