import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer, type RunningServer } from '../../api/server';
import type { Workspace } from '../../platform/port';
import { testAppDeps } from '../api/deps';
import { seedMiniCatalog } from '../clone/fixtures/mini-catalog';
import { createHarness, type Harness } from '../helpers/harness';

const run = promisify(execFile);
let h: Harness;
let server: RunningServer;
let ws: Workspace;

/** The real `lakeward` command against the test server; resolves with stdout and the exit code. */
const cli = async (...args: string[]): Promise<{ out: string; code: number }> => {
  try {
    const { stdout } = await run(
      path.resolve(__dirname, '../../node_modules/.bin/tsx'),
      [path.resolve(__dirname, '../../cli/main.ts'), ...args, '--url', server.url],
      { encoding: 'utf8' },
    );
    return { out: stdout, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; code: number };
    return { out: e.stdout, code: e.code };
  }
};

beforeAll(async () => {
  h = await createHarness('analysis-cli');
  ws = h.open(h.config.workspace.root);
  // Two catalogs that differ in one table: `dev` is `prod` without hr.employees' view and with one more order.
  await seedMiniCatalog(ws, 'prod');
  await seedMiniCatalog(ws, 'dev');
  await ws.dropView({ catalog: 'dev', schema: 'hr', name: 'headcount' });
  await ws.insertRows({ catalog: 'dev', schema: 'sales', name: 'orders' }, [{ id: 99, region: 'EU', amount: '1.00' }]);
  const deps = testAppDeps({ store: h.store, flags: { dataDir: h.config.data_dir }, open: async () => ws });
  server = await startServer(deps, { host: '127.0.0.1', port: 0 });
}, 120_000);
afterAll(async () => {
  await server?.close(500);
  await h?.teardown();
});

test('lakeward diff prints the one difference as a table; --json prints the API body', async () => {
  const { out } = await cli('diff', 'prod', 'dev');
  expect(out.trim().split('\n')).toEqual(['kind  name          difference', 'view  hr.headcount  only in source']);
  const json = JSON.parse((await cli('diff', 'prod', 'dev', '--json')).out);
  expect(json.views.only_in_source).toEqual(['hr.headcount']);
});

test('lakeward validate and monitor --counts exit 1 and name the mismatching table', async () => {
  const v = await cli('validate', 'prod', 'dev');
  expect(v.code).toBe(1);
  expect(v.out).toMatch(/sales\.orders\s+40\s+41\s+MISMATCH/);
  expect(v.out).toMatch(/FAILED: 1 matched, 1 mismatched, 0 errors/);
  const m = await cli('monitor', 'prod', 'dev', '--counts');
  expect(m.code).toBe(1);
  expect(m.out).toMatch(/sales\.orders\s+count_drift\s+40\s+41/);
  expect(m.out).toMatch(/OUT OF SYNC/);
});

test('lakeward sample, lineage and impact', async () => {
  const s = await cli('sample', 'prod.hr.employees', '--limit', '1');
  expect(s.out.trim().split('\n')).toEqual(['name  ssn', 'ada   ***']);
  const l = await cli('lineage', 'prod', 'sales.orders');
  expect(l.out).toMatch(/prod\.sales\.orders\s+prod\.sales\.eu_orders\s+view/);
  expect(l.out).toMatch(/downstream: prod\.sales\.big_eu_orders, prod\.sales\.eu_orders/);
  const i = await cli('impact', 'prod', 'sales', 'orders');
  expect(i.out).toMatch(/2 affected; risk low/);
});
