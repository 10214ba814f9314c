import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../config/load';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lakeward-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

test('built-in defaults: API on 8080 for a UI on 8000, embedded Temporal and PGlite under .lakeward', () => {
  const cfg = loadConfig({ env: {}, cwd: dir });
  expect(cfg.config_path).toBeNull();
  expect(cfg.api_server).toMatchObject({ port: 8080, api_key: null, cors_origins: ['http://localhost:8000'] });
  expect(cfg.temporal).toMatchObject({ address: null, port: 7233, ui_port: 8233, namespace: 'default' });
  expect(cfg.database_url).toBeNull();
  expect(cfg.data_dir).toBe(path.join(dir, '.lakeward'));
  expect(cfg.workspace.root).toBe(path.join(dir, '.lakeward/workspace'));
  expect(cfg.clone).toMatchObject({
    max_retries: 3,
    max_concurrent: 1,
    max_queue_size: 10,
    request_timeout_minutes: 120,
  });
  expect(cfg.cache.ttl_seconds).toBe(300);
});

test('precedence: defaults < config file < environment < flags', () => {
  const file = configFile(
    'layers.yaml',
    'api_server:\n  port: 9001\n  host: 0.0.0.0\ndata_dir: from-file\nlog_level: warn\n',
  );
  const fileOnly = loadConfig({ configPath: file, env: {}, cwd: dir });
  expect(fileOnly.api_server).toMatchObject({ port: 9001, host: '0.0.0.0' });
  expect(fileOnly.log_level).toBe('warn');

  const withEnv = loadConfig({
    configPath: file,
    env: { LAKEWARD_PORT: '9002', LAKEWARD_DATA_DIR: 'from-env' },
    cwd: dir,
  });
  expect(withEnv.api_server.port).toBe(9002);
  expect(withEnv.data_dir).toBe(path.join(dir, 'from-env'));
  expect(withEnv.api_server.host).toBe('0.0.0.0'); // untouched keys keep the file's value

  const withFlags = loadConfig({ configPath: file, env: { LAKEWARD_PORT: '9002' }, flags: { port: '9003' }, cwd: dir });
  expect(withFlags.api_server.port).toBe(9003);
});

test('TEMPORAL_ADDRESS and DATABASE_URL switch to a cluster and a Postgres server', () => {
  const cfg = loadConfig({ env: { TEMPORAL_ADDRESS: 'temporal:7233', DATABASE_URL: 'postgres://u@db/x' }, cwd: dir });
  expect(cfg.temporal.address).toBe('temporal:7233');
  expect(cfg.database_url).toBe('postgres://u@db/x');
});

test('the API key may reference an environment variable, by ${NAME} or api_key_env', () => {
  const byRef = configFile('key-ref.yaml', 'api_server:\n  api_key: ${MY_KEY}\n');
  expect(loadConfig({ configPath: byRef, env: { MY_KEY: '0123' }, cwd: dir }).api_server.api_key).toBe('0123');
  const byName = configFile('key-env.yaml', 'api_server:\n  api_key_env: OTHER_KEY\n');
  expect(loadConfig({ configPath: byName, env: { OTHER_KEY: 's3cret' }, cwd: dir }).api_server.api_key).toBe('s3cret');
  expect(loadConfig({ env: { LAKEWARD_API_KEY: '42' }, cwd: dir }).api_server.api_key).toBe('42');

  const missing = errorOf(() => loadConfig({ configPath: byRef, env: {}, cwd: dir }));
  expect(missing.issues).toEqual([{ path: 'api_server.api_key', message: 'environment variable MY_KEY is not set' }]);
});

test('an unknown key stops start-up naming it', () => {
  const file = configFile('typo.yaml', 'api_server:\n  prot: 8080\nclone:\n  max_retries: 2\n');
  const err = errorOf(() => loadConfig({ configPath: file, env: {}, cwd: dir }));
  expect(err.issues).toEqual([{ path: 'api_server.prot', message: 'unknown key' }]);
  expect(err.message).toContain(file);
});

test('a bad value stops start-up naming the key and where the value came from', () => {
  const file = configFile('bad.yaml', 'clone:\n  max_retries: -1\ntemporal:\n  ui_port: 70000\n');
  const err = errorOf(() => loadConfig({ configPath: file, env: { LAKEWARD_PORT: 'eighty' }, cwd: dir }));
  expect(err.issues.map((i) => i.path).sort()).toEqual(['api_server.port', 'clone.max_retries', 'temporal.ui_port']);
  expect(err.issues.find((i) => i.path === 'api_server.port')!.message).toContain('from LAKEWARD_PORT');
  const flagErr = errorOf(() => loadConfig({ env: {}, flags: { logLevel: 'loud' }, cwd: dir }));
  expect(flagErr.issues[0]).toMatchObject({ path: 'log_level', message: expect.stringContaining('from --log-level') });
});

test('an explicit config file that does not exist, or is not YAML, is an error', () => {
  expect(errorOf(() => loadConfig({ configPath: 'nope.yaml', env: {}, cwd: dir })).issues[0].path).toBe('config');
  const broken = configFile('broken.yaml', 'api_server: [unclosed\n');
  expect(errorOf(() => loadConfig({ configPath: broken, env: {}, cwd: dir })).issues[0].message).toMatch(
    /not valid YAML/,
  );
});

test('the shipped config/lakeward.yaml loads and changes nothing', () => {
  const shipped = path.resolve(__dirname, '../../config/lakeward.yaml');
  const cfg = loadConfig({ configPath: shipped, env: {}, cwd: dir });
  expect({ ...cfg, config_path: null }).toEqual(loadConfig({ env: {}, cwd: dir }));
});

test('worker.local_threads: 2 by default, set from LAKEWARD_WORKER_LOCAL_THREADS, bounded', () => {
  expect(loadConfig({ env: {}, cwd: dir }).worker.local_threads).toBe(2);
  expect(loadConfig({ env: { LAKEWARD_WORKER_LOCAL_THREADS: '0' }, cwd: dir }).worker.local_threads).toBe(0);
  const err = errorOf(() => loadConfig({ env: { LAKEWARD_WORKER_LOCAL_THREADS: '99' }, cwd: dir }));
  expect(err.message).toMatch(/worker\.local_threads/);
  expect(err.message).toMatch(/LAKEWARD_WORKER_LOCAL_THREADS/);
});
