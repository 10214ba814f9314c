import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadOrCreateSigningKey } from '../../config/provenance-key';
import { buildManifest, signManifest, verifyEnvelope } from '../../activities/clone/logic/provenance-sign';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'lw-prov-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const input = {
  job_id: 'clone-20261121-101500-3fa2',
  source_catalog: 'sales',
  destination_catalog: 'sales_dr',
  config: {
    clone_type: 'DEEP',
    max_workers: 4,
    target_workspace: { host: 'https://x', token: 'dapiSECRET', client_secret: 's3' },
    password: 'p',
  },
  result: {
    tables_cloned: 12,
    tables_failed: 0,
    bytes_copied: 123456,
    validation: { passed: true, matched: 12, mismatched: 0 },
  },
};

test('the key pair is generated on first use, kept in the data folder (0600) and reused', () => {
  const a = loadOrCreateSigningKey({ dataDir: dir });
  const b = loadOrCreateSigningKey({ dataDir: dir });
  expect(b.keyId).toBe(a.keyId);
  expect(a.publicKeyPem).toMatch(/BEGIN PUBLIC KEY/);
  expect(statSync(path.join(dir, 'provenance-ed25519.pem')).mode & 0o777).toBe(0o600);
});

test('a key supplied by config is used instead of the data folder', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const k = loadOrCreateSigningKey({ dataDir: path.join(dir, 'unused'), privateKeyPem: pem });
  expect(k.keyId).not.toBe(loadOrCreateSigningKey({ dataDir: dir }).keyId);
  expect(() =>
    loadOrCreateSigningKey({
      dataDir: dir,
      privateKeyPem: generateKeyPairSync('ec', { namedCurve: 'P-256' })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
    }),
  ).toThrow(/Ed25519/);
});

test('a signed manifest verifies with only the public key, and carries no secrets', () => {
  const key = loadOrCreateSigningKey({ dataDir: dir });
  const env = signManifest(buildManifest(input, new Date('2026-11-21T10:20:00Z')), key);
  expect(verifyEnvelope(env, key.publicKeyPem)).toEqual({ valid: true, reason: 'Signature verified' });
  expect(verifyEnvelope(JSON.parse(JSON.stringify(env)), key)).toEqual({ valid: true, reason: 'Signature verified' });
  const text = JSON.stringify(env);
  expect(text).not.toMatch(/dapiSECRET|s3|"password"/);
  expect(env.manifest).toMatchObject({
    job_id: input.job_id,
    source_catalog: 'sales',
    destination_catalog: 'sales_dr',
    config: { clone_type: 'DEEP', target_workspace: { host: 'https://x' } },
  });
});

test('changing any single byte of a signed envelope makes it fail verification', () => {
  const key = loadOrCreateSigningKey({ dataDir: dir });
  const text = JSON.stringify(signManifest(buildManifest(input, new Date('2026-11-21T10:20:00Z')), key));
  let checked = 0;
  for (let i = 0; i < text.length; i++) {
    for (const delta of [1, -1, 32]) {
      const code = text.charCodeAt(i) ^ delta;
      if (code < 32 || code > 126 || delta === -1) continue;
      const changed = text.slice(0, i) + String.fromCharCode(code) + text.slice(i + 1);
      let parsed: unknown;
      try {
        parsed = JSON.parse(changed);
      } catch {
        continue; // no longer JSON: cannot be presented as an envelope
      }
      checked++;
      const verdict = verifyEnvelope(parsed, key.publicKeyPem);
      if (verdict.valid) throw new Error(`change at ${i} (${text[i]} -> ${String.fromCharCode(code)}) still verified`);
    }
  }
  expect(checked).toBeGreaterThan(text.length);
});

test('an envelope is rejected by a different key and when unsigned', () => {
  const key = loadOrCreateSigningKey({ dataDir: dir });
  const env = signManifest(buildManifest(input, new Date()), key);
  const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
  expect(verifyEnvelope(env, other)).toEqual({ valid: false, reason: 'Signed with a different key' });
  expect(verifyEnvelope({ ...env, signed: false }, key).reason).toBe('Envelope was never signed');
  expect(verifyEnvelope({ ...env, extra: 1 }, key).valid).toBe(false);
});
