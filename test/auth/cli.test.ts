import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer } from '../../api/server';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { StubServer } from '../databricks/stub-server';
import { createTestStore } from '../helpers/db';

const run = promisify(execFile);
const tsx = path.resolve(__dirname, '../../node_modules/.bin/tsx');
const TOKEN = 'dapi5555666677778888999900001111aaaa';

let store: Store;
let scim: StubServer;
beforeAll(async () => {
  store = await createTestStore();
  scim = await new StubServer()
    .on('GET /api/2.0/preview/scim/v2/Me', (req) =>
      req.headers.authorization === `Bearer ${TOKEN}`
        ? { json: { userName: 'lin@example.com' } }
        : { status: 401, json: { message: 'Invalid access token.' } },
    )
    .start();
});
afterAll(async () => {
  await scim?.stop();
  await store?.close();
});

test('lakeward auth status, login and env-vars show what the API answers, secrets masked', async () => {
  const server = await startServer(testAppDeps({ store, flags: { dataDir: '/tmp/lakeward-auth-cli' } }), {
    host: '127.0.0.1',
    port: 0,
  });
  const cli = async (args: string[], env: NodeJS.ProcessEnv = {}) =>
    (
      await run(tsx, [path.resolve(__dirname, '../../cli/main.ts'), 'auth', ...args, '--url', server.url], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
      })
    ).stdout;
  try {
    expect(JSON.parse(await cli(['status', '--json']))).toMatchObject({ authenticated: true, auth_method: 'local' });
    expect(await cli(['login', '--host', scim.url], { DATABRICKS_TOKEN: TOKEN })).toContain(
      `signed in as lin@example.com on ${scim.url} (pat)`,
    );
    await expect(cli(['login', '--host', scim.url, '--token', 'wrong'])).rejects.toThrow(/refused/);
    process.env.DATABRICKS_TOKEN = TOKEN; // the server runs in this process
    const vars = JSON.parse(await cli(['env-vars', '--json']));
    expect(vars.DATABRICKS_TOKEN).toBe('****aaaa');
    expect(await cli(['env-vars'])).toContain('DATABRICKS_TOKEN=****aaaa');
  } finally {
    delete process.env.DATABRICKS_TOKEN;
    await server.close(500);
  }
}, 60_000);
