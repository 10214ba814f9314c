import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { publicKeyId, type SigningKey } from '../activities/clone/logic/provenance-sign';

export type { SigningKey } from '../activities/clone/logic/provenance-sign';

export interface KeyOptions {
  /** Folder holding `provenance-ed25519.pem` (the data folder). */
  dataDir: string;
  /** A PKCS#8 PEM private key supplied by configuration; when set, nothing is read from or written to disk. */
  privateKeyPem?: string | null;
}

const KEY_FILE = 'provenance-ed25519.pem';

function fromPrivate(privateKey: KeyObject): SigningKey {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('provenance key must be an Ed25519 private key');
  const publicKey = createPublicKey(privateKey);
  return {
    privateKey,
    publicKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    keyId: publicKeyId(publicKey),
  };
}

/** The signing key: from config, else from the data folder, generated there (mode 0600) on first use. */
export function loadOrCreateSigningKey(opts: KeyOptions): SigningKey {
  if (opts.privateKeyPem) return fromPrivate(createPrivateKey(opts.privateKeyPem));
  const file = path.join(opts.dataDir, KEY_FILE);
  if (existsSync(file)) return fromPrivate(createPrivateKey(readFileSync(file, 'utf8')));
  mkdirSync(opts.dataDir, { recursive: true });
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // Write then rename, so a concurrent first use never reads a half-written key.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, pem, { mode: 0o600 });
  if (existsSync(file)) return fromPrivate(createPrivateKey(readFileSync(file, 'utf8')));
  renameSync(tmp, file);
  return fromPrivate(privateKey);
}
