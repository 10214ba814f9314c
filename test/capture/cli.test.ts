import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer, type RunningServer } from '../../api/server';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

/** `lakeward ai explain` and `lakeward capture init|frame|recent`: the real CLI as a child process. */
const run = promisify(execFile);
let store: Store;
let root: string;
let server: RunningServer;

const cli = async (...args: string[]) =>
  (
    await run(
      path.resolve(__dirname, '../../node_modules/.bin/tsx'),
      [path.resolve(__dirname, '../../cli/main.ts'), ...args, '--url', server.url],
      { cwd: root, encoding: 'utf8' },
    )
  ).stdout;

beforeAll(async () => {
  store = await createTestStore();
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-capture-cli-'));
  const ws = new LocalWorkspace({ root, user: 'lakeward' });
  await ws.createCatalog({ name: 'cam' });
  await ws.createSchema({ catalog: 'cam', name: 's' });
  await ws.createTableAs({
    ref: { catalog: 'cam', schema: 's', name: 'orders' },
    query: 'SELECT id FROM range(10) t(id)',
  });
  await ws.close();
  const deps = testAppDeps({
    store,
    flags: { dataDir: root },
    open: async () => new LocalWorkspace({ root, user: 'lakeward' }),
  });
  server = await startServer(deps, { host: '127.0.0.1', port: 0 });
}, 60_000);

afterAll(async () => {
  await server?.close(500);
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

test('lakeward ai explain prints the template explanation and what it cost', async () => {
  const out = await cli('ai', 'explain', '--sql', 'SELECT id FROM cam.s.orders WHERE id > 3');
  expect(out).toContain('The query reads 1 table: cam.s.orders. It keeps rows where id > 3.');
  expect(out).toMatch(/source: template \(no_model\)/);
  expect(out).toMatch(/tokens: 0 of 50000 charged, 0 call\(s\)/);
});

test('lakeward capture init, frame and recent', async () => {
  const target = ['--catalog', 'cam', '--schema', 's'];
  expect(await cli('capture', 'init', ...target)).toContain('table cam.s.demo_capture_catalog: created');
  const frame = path.resolve(__dirname, 'fixtures/frame.jpg');
  const stored = JSON.parse(await cli('capture', 'frame', frame, ...target, '--session', 'cli-1', '--json'));
  expect(stored).toMatchObject({ mime_type: 'image/jpeg', session_id: 'cli-1', description_style: 'strict' });
  const recent = JSON.parse(await cli('capture', 'recent', ...target, '--json'));
  expect(recent.captures.map((c: { capture_id: string }) => c.capture_id)).toEqual([stored.capture_id]);
});
