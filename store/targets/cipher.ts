import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Saved target credentials at rest: AES-256-GCM (node:crypto) with a 12-byte random nonce per write. The row's
 * `credentials` column holds only this envelope, never the values; the key comes from the configuration
 * (`targets.credentials_key`) or a key file in the data folder (`<data_dir>/target-credentials.key`, created
 * on first use with mode 0600).
 */
export interface CredentialEnvelope {
  alg: 'aes-256-gcm';
  iv: string;
  tag: string;
  data: string;
  [k: string]: string;
}

export interface TargetCipher {
  seal(values: Record<string, string>): CredentialEnvelope;
  open(envelope: Record<string, string>): Record<string, string>;
}

export const KEY_FILE = 'target-credentials.key';

export function isEnvelope(v: Record<string, string>): v is CredentialEnvelope {
  return v.alg === 'aes-256-gcm' && typeof v.iv === 'string' && typeof v.data === 'string';
}

export function targetCipher(key: Buffer): TargetCipher {
  if (key.length !== 32) throw new Error('the target credentials key must be 32 bytes');
  return {
    seal(values) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([c.update(JSON.stringify(values), 'utf8'), c.final()]);
      return {
        alg: 'aes-256-gcm',
        iv: iv.toString('base64'),
        tag: c.getAuthTag().toString('base64'),
        data: data.toString('base64'),
      };
    },
    open(envelope) {
      if (!isEnvelope(envelope)) throw new Error('saved credentials are not sealed');
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(envelope.iv, 'base64'));
      d.setAuthTag(Buffer.from(envelope.tag, 'base64'));
      try {
        const text = Buffer.concat([d.update(Buffer.from(envelope.data, 'base64')), d.final()]).toString('utf8');
        return JSON.parse(text) as Record<string, string>;
      } catch {
        throw new Error(
          'saved target credentials cannot be decrypted with this key (targets.credentials_key or the key file changed)',
        );
      }
    },
  };
}

/**
 * The key from its configured text (64 hex digits or 44 base64 characters are used as they are; any other
 * text is a passphrase stretched with scrypt), else from the data folder's key file, created when missing.
 */
export function targetKey(opts: { configured: string | null; dataDir: string }): Buffer {
  const text = opts.configured?.trim();
  if (text) {
    if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex');
    if (/^[A-Za-z0-9+/]{43}=$/.test(text)) return Buffer.from(text, 'base64');
    return scryptSync(text, 'lakeward-target-credentials', 32);
  }
  const file = path.join(opts.dataDir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(opts.dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process created it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return key;
}

const cached = new Map<string, TargetCipher>();

/** One cipher per key source for the process (the key file is read once). */
export function targetCipherFor(opts: { configured: string | null; dataDir: string }): TargetCipher {
  const id = `${opts.configured ?? ''}\u0000${path.resolve(opts.dataDir)}`;
  let c = cached.get(id);
  if (!c) cached.set(id, (c = targetCipher(targetKey(opts))));
  return c;
}

/** The cipher of a loaded configuration (`targets.credentials_key`, else the key file in `data_dir`). */
export function configTargetCipher(config: {
  data_dir: string;
  targets: { credentials_key: string | null };
}): TargetCipher {
  return targetCipherFor({ configured: config.targets.credentials_key, dataDir: config.data_dir });
}
