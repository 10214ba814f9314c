import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../api/server';
import { harnessAppDeps } from '../helpers/harness-app';
import { runCli } from '../helpers/cli';
import { createHarness, type Harness } from '../helpers/harness';
import { ORDERS_FQN, seedOrders } from './fixtures';

let h: Harness;
let server: RunningServer;
let dir: string;

/** The real `lakeward dq …` against the test server; resolves with stdout and the exit status. */
const cli = async (...args: string[]) => {
  const r = await runCli(['dq', ...args, '--url', server.url], { cwd: dir });
  return { out: r.stdout + r.stderr, code: r.code };
};

beforeAll(async () => {
  h = await createHarness('dq-ops-cli');
  dir = mkdtempSync(path.join(tmpdir(), 'lw-dq-ops-cli-'));
  const root = h.config.workspace.root;
  await seedOrders(h.open(root));
  const deps = harnessAppDeps(h);
  server = await startServer(deps, { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server?.close(500);
  await h?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

test('lakeward dq gate, rules, suite, schedule, anomalies, impact and root-cause', async () => {
  await h.withWorker(async () => {
    expect((await cli('add', ORDERS_FQN, 'is_not_null', '--args', '{"column":"customer"}')).code).toBe(0);
    const gate = await cli('gate', ORDERS_FQN, '--min-pass-rate', '90');
    expect(gate).toEqual({
      out: 'DQ gate failed: pass rate 80% < threshold 90% (2 invalid rows out of 10)\n',
      code: 1,
    });

    const added = await cli(
      'rules',
      'add',
      ORDERS_FQN,
      'amount_range',
      'range',
      '--column',
      'amount',
      '--params',
      '{"min":0,"max":500}',
      '--action',
      'quarantine',
    );
    const id = /created (rule-\w+)/.exec(added.out)![1];
    expect((await cli('rules', 'list', ORDERS_FQN)).out).toContain(`${id}  inactive  quarantine`);
    expect((await cli('rules', 'test', id)).out).toMatch(/^3 violation\(s\) in 10 sampled rows/);
    expect((await cli('rules', 'activate', id)).out).toBe(`${id}: active\n`);

    const gx = path.join(dir, 'suite.json');
    writeFileSync(
      gx,
      JSON.stringify({
        expectation_suite_name: 'cli_suite',
        expectations: [
          { expectation_type: 'expect_column_values_to_not_be_null', kwargs: { column: 'id' } },
          { expectation_type: 'expect_column_kl_divergence_to_be_less_than', kwargs: { column: 'amount' } },
        ],
      }),
    );
    const imported = await cli('suite', 'import', gx, '--table', ORDERS_FQN);
    expect(imported.out).toMatch(
      /^suite cli_suite: 1 expectations imported, 1 unsupported\n {2}unsupported expect_column_kl_divergence_to_be_less_than: not supported/,
    );
    expect(await cli('suite', 'validate', 'cli_suite')).toEqual({
      out: 'cli_suite: 1 of 1 expectations met\n  ok    expect_column_values_to_not_be_null  0 unexpected\n',
      code: 0,
    });
    await cli('suite', 'docs', 'cli_suite', '-o', 'docs.html');
    expect(readFileSync(path.join(dir, 'docs.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/);

    const created = await cli('schedule', 'create', 'nightly', '30 2 * * *', '--table', ORDERS_FQN);
    const sid = /created (dqs-\w+)/.exec(created.out)![1];
    expect((await cli('schedule', 'list')).out).toContain(`${sid}  active  30 2 * * *  table ${ORDERS_FQN}  nightly`);
    expect((await cli('schedule', 'pause', sid)).out).toBe(`${sid}: paused\n`);
    expect((await cli('schedule', 'create', 'bad', '99 * * * *')).code).not.toBe(0);
    expect((await cli('schedule', 'delete', sid)).out).toBe(`${sid}: deleted\n`);

    expect((await cli('anomalies', 'list', '--status', 'open')).out).toBe('no anomalies\n');
    expect((await cli('impact', ORDERS_FQN)).out).toMatch(
      new RegExp(`^${ORDERS_FQN}: \\d+ affected, risk (low|medium|high)`),
    );
    // the table was created a moment ago: its CREATE TABLE is the one schema change in the window
    expect((await cli('root-cause', ORDERS_FQN)).out).toMatch(
      /^0\.60 {2}schema_change: 1 schema change\(s\) of shop\.sales\.orders in the last 24 h: CREATE TABLE\n$/,
    );
    expect((await cli('root-cause', 'shop.sales.orders', '--hours', '1', '--json')).code).toBe(0);
  });
}, 300_000);
