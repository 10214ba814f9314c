import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configuredKeys, keyRing } from '../../api/middleware/auth';
import { ConfigError, loadConfig } from '../../config/load';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lw-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

test('api_server.keys: key or key_env per key, a role each; the single api_key joins them as admin', () => {
  const configPath = file(
    'keys.yaml',
    [
      'api_server:',
      '  api_key_env: MAIN_KEY',
      '  keys:',
      '    - { name: ci-bot, key_env: CI_KEY, role: editor }',
      '    - { name: ana, key: plain-viewer-key, role: viewer }',
    ].join('\n'),
  );
  const cfg = loadConfig({ configPath, env: { MAIN_KEY: 'main-secret', CI_KEY: 'ci-secret' }, cwd: dir });
  const keys = configuredKeys(cfg.api_server);
  expect(keys.map((k) => [k.name, k.role])).toEqual([
    ['MAIN_KEY', 'admin'],
    ['ci-bot', 'editor'],
    ['ana', 'viewer'],
  ]);
  const ring = keyRing(keys);
  expect(ring.identify('ci-secret')).toEqual({ name: 'ci-bot', role: 'editor' });
  expect(ring.identify('main-secret')).toEqual({ name: 'MAIN_KEY', role: 'admin' });
  expect(ring.identify('wrong')).toBeNull();
  expect(keyRing(configuredKeys(loadConfig({ env: {}, cwd: dir }).api_server)).enabled).toBe(false);
});

test('a key whose environment variable is unset, a key with both or neither, a bad role or a duplicate name fail start-up naming the key', () => {
  const issues = (text: string, env: NodeJS.ProcessEnv = {}) => {
    try {
      loadConfig({ configPath: file(`bad-${Math.random()}.yaml`, text), env, cwd: dir });
    } catch (err) {
      if (err instanceof ConfigError) return err.issues.map((i) => `${i.path}: ${i.message}`).join('\n');
      throw err;
    }
    return 'no error';
  };
  expect(issues('api_server:\n  keys:\n    - { name: a, key_env: NOPE, role: viewer }\n')).toContain(
    'api_server.keys.0.key_env: environment variable NOPE is not set',
  );
  expect(issues('api_server:\n  keys:\n    - { name: a, role: viewer }\n')).toContain('api_server.keys.0');
  expect(issues('api_server:\n  keys:\n    - { name: a, key: k, role: owner }\n')).toContain('api_server.keys.0.role');
  expect(
    issues('api_server:\n  keys:\n    - { name: a, key: k1, role: viewer }\n    - { name: a, key: k2, role: admin }\n'),
  ).toContain('key names must be unique');
});
