import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../api/server';
import { harnessAppDeps } from '../helpers/harness-app';
import { cliOut } from '../helpers/cli';
import { createHarness, type Harness } from '../helpers/harness';
import { ORDERS_FQN, seedOrders } from './fixtures';

let h: Harness;
let server: RunningServer;
let dir: string;

/** The real `lakeward` command against the test server (a child process, so the server keeps answering). */
const cli = (...args: string[]) => cliOut([...args, '--url', server.url], { cwd: dir });

beforeAll(async () => {
  h = await createHarness('dq-cli');
  dir = mkdtempSync(path.join(tmpdir(), 'lw-dq-cli-'));
  const root = h.config.workspace.root;
  const ws = h.open(root);
  await seedOrders(ws);
  const deps = harnessAppDeps(h);
  server = await startServer(deps, { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server?.close(500);
  await h?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

test('lakeward dq: add checks, run with a readable report, export and import YAML, coverage', async () => {
  await cli('dq', 'add', ORDERS_FQN, 'is_not_null', '--args', '{"column":"customer"}', '--name', 'customer_present');
  await cli(
    'dq',
    'add',
    ORDERS_FQN,
    'is_not_greater_than',
    '--args',
    '{"column":"amount","limit":500}',
    '--criticality',
    'warn',
    '--name',
    'amount_sane',
  );
  const checks = JSON.parse(await cli('dq', 'checks', ORDERS_FQN, '--json')) as { name: string }[];
  expect(checks.map((c) => c.name)).toEqual(['amount_sane', 'customer_present']);

  const report = await h.withWorker(() => cli('dq', 'run', ORDERS_FQN));
  expect(report).toMatch(/pass rate 80%: 8 of 10 rows valid, 2 invalid, 1 with warnings only/);
  expect(report).toMatch(/^customer_present\s+error\s+2\s+20\.00%$/m);
  expect(report).toMatch(/^amount_sane\s+warn\s+2\s+20\.00%$/m);
  expect(report).toMatch(/"id":7.*← customer_present, amount_sane \(warn\)/);

  await cli('dq', 'export', ORDERS_FQN, '-o', 'checks.yaml');
  expect(readFileSync(path.join(dir, 'checks.yaml'), 'utf8')).toMatch(/function: is_not_null/);
  expect(await cli('dq', 'import', 'checks.yaml', '--table', ORDERS_FQN)).toMatch(/^0 created, 0 updated, 0 rejected/);
  expect(await cli('dq', 'coverage', 'shop')).toMatch(/shop: 1 of 1 tables have checks \(100%\)/);
}, 120_000);
