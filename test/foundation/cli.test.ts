import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startServer, type RunningServer } from '../../api/server';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';
import { connectTestEnv } from '../helpers/temporal';
import { freePort, LAKEWARD_BIN } from './stack-process';

const KEY = 'cli-test-key';
let env: TestWorkflowEnvironment;
let store: Store;
let server: RunningServer;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'lakeward-cli-'));

beforeAll(async () => {
  [env, store] = await Promise.all([connectTestEnv(), createTestStore()]);
  const temporal = { client: env.client, connection: env.connection, address: env.connection.options.address };
  server = await startServer(testAppDeps({ store, temporal, flags: { apiKey: KEY } }), { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server?.close();
  await Promise.all([env?.teardown(), store?.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

/** Runs bin/lakeward from a foreign working directory (the shim must find the checkout by itself). */
function lakeward(
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { LAKEWARD_API_KEY: _k, LAKEWARD_URL: _u, DATABASE_URL: _d, TEMPORAL_ADDRESS: _t, ...base } = process.env;
  return new Promise((resolve) => {
    execFile(LAKEWARD_BIN, args, { cwd: tmp, env: { ...base, ...extraEnv } }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

test('lakeward health --json prints the health body and exits 0 when everything is reachable', async () => {
  const res = await lakeward(['health', '--json', '--url', server.url, '--api-key', KEY]);
  expect(res.code).toBe(0);
  expect(JSON.parse(res.stdout)).toMatchObject({ status: 'ok', runtime: { temporal: { reachable: true } } });
});

test('lakeward health reads LAKEWARD_URL and LAKEWARD_API_KEY and prints text', async () => {
  const res = await lakeward(['health'], { LAKEWARD_URL: server.url, LAKEWARD_API_KEY: KEY });
  expect(res.code).toBe(0);
  expect(res.stdout).toMatch(/: ok\n\s+Temporal\s+reachable/);
});

test('a missing API key is reported with the API error code and exit code 1 (health itself stays open)', async () => {
  const res = await lakeward(['jobs', '--url', server.url]);
  expect(res.code).toBe(1);
  expect(res.stderr).toContain('UNAUTHORIZED (HTTP 401)');
  expect((await lakeward(['health', '--url', server.url])).code).toBe(0);
});

test('an API that is not running gives exit code 3 and says so', async () => {
  const res = await lakeward(['health', '--url', `http://127.0.0.1:${await freePort()}`]);
  expect(res.code).toBe(3);
  expect(res.stderr).toContain('cannot reach the Lakeward API');
});

test('lakeward version --json reports the CLI and the server version', async () => {
  const res = await lakeward(['version', '--json', '--url', server.url, '--api-key', KEY]);
  const out = JSON.parse(res.stdout) as { cli: { version: string }; server: { version: string; reachable: boolean } };
  expect(out.server).toMatchObject({ reachable: true, version: out.cli.version });
});

test('a bad config value stops lakeward dev before anything starts, naming the key', async () => {
  const file = path.join(tmp, 'bad.yaml');
  writeFileSync(file, 'temporal:\n  ui_port: lots\n');
  const res = await lakeward(['dev', '--config', file, '--data-dir', path.join(tmp, 'data')]);
  expect(res.code).toBe(2);
  expect(res.stderr).toContain('temporal.ui_port');
  const flag = await lakeward(['dev', '--port', 'http', '--data-dir', path.join(tmp, 'data')]);
  expect(flag.code).toBe(2);
  expect(flag.stderr).toMatch(/api_server\.port: .*from --port/);
});
