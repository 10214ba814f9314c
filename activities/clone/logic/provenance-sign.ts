import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson, withoutSecrets } from './provenance-canonical';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SPKI PEM of the public key, as served to verifiers. */
  publicKeyPem: string;
  /** sha256 of the DER public key, hex: names the key in envelopes. */
  keyId: string;
}

/** sha256 of the DER (SPKI) public key, hex. */
export const publicKeyId = (publicKey: KeyObject): string =>
  createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');

export interface ManifestInput {
  source_catalog: string;
  destination_catalog: string;
  config?: Record<string, unknown>;
  result?: Record<string, unknown>;
  job_id?: string | null;
}

export interface Manifest {
  manifest_version: 1;
  job_id: string | null;
  source_catalog: string;
  destination_catalog: string;
  signed_at: string;
  /** Effective clone configuration, credentials removed. */
  config: Record<string, unknown>;
  result: Record<string, unknown>;
}

export interface SignedEnvelope {
  signed: true;
  algorithm: 'Ed25519';
  key_id: string;
  /** Lower-case hex of the 64-byte Ed25519 signature over canonicalJson(manifest). */
  signature: string;
  manifest: Manifest;
}

export function buildManifest(input: ManifestInput, signedAt: Date): Manifest {
  return {
    manifest_version: 1,
    job_id: input.job_id ?? null,
    source_catalog: input.source_catalog,
    destination_catalog: input.destination_catalog,
    signed_at: signedAt.toISOString(),
    config: withoutSecrets(input.config ?? {}) as Record<string, unknown>,
    result: withoutSecrets(input.result ?? {}) as Record<string, unknown>,
  };
}

export function signManifest(manifest: Manifest, key: SigningKey): SignedEnvelope {
  const signature = sign(null, Buffer.from(canonicalJson(manifest), 'utf8'), key.privateKey).toString('hex');
  return { signed: true, algorithm: 'Ed25519', key_id: key.keyId, signature, manifest };
}

export interface Verdict {
  valid: boolean;
  reason: string;
}

const ENVELOPE_KEYS = ['algorithm', 'key_id', 'manifest', 'signature', 'signed'];

/**
 * Verifies an envelope against a public key (the service's, or one a third party holds). Strict about shape:
 * any extra or altered envelope field is a failure, so no byte of a signed envelope can change unnoticed.
 */
export function verifyEnvelope(envelope: unknown, key: { publicKey: KeyObject; keyId: string } | string): Verdict {
  let pub: KeyObject;
  try {
    pub = typeof key === 'string' ? createPublicKey(key) : key.publicKey;
  } catch {
    return { valid: false, reason: 'The public key is not a valid PEM key' };
  }
  if (pub.asymmetricKeyType !== 'ed25519') return { valid: false, reason: 'The public key is not an Ed25519 key' };
  const keyId = typeof key === 'string' ? publicKeyId(pub) : key.keyId;
  if (!envelope || typeof envelope !== 'object' || Array.isArray(envelope))
    return { valid: false, reason: 'Envelope is not an object' };
  const e = envelope as Record<string, unknown>;
  if (e.signed !== true) return { valid: false, reason: 'Envelope was never signed' };
  if (Object.keys(e).sort().join(',') !== ENVELOPE_KEYS.join(','))
    return { valid: false, reason: `Envelope must have exactly: ${ENVELOPE_KEYS.join(', ')}` };
  if (e.algorithm !== 'Ed25519') return { valid: false, reason: `Unsupported algorithm ${String(e.algorithm)}` };
  if (typeof e.signature !== 'string' || !/^[0-9a-f]{128}$/.test(e.signature))
    return { valid: false, reason: 'No valid signature in envelope' };
  if (e.key_id !== keyId) return { valid: false, reason: 'Signed with a different key' };
  if (!e.manifest || typeof e.manifest !== 'object') return { valid: false, reason: 'No manifest in envelope' };
  let bytes: Buffer;
  try {
    bytes = Buffer.from(canonicalJson(e.manifest), 'utf8');
  } catch (err) {
    return { valid: false, reason: `Manifest cannot be encoded: ${(err as Error).message}` };
  }
  const ok = verify(null, bytes, pub, Buffer.from(e.signature, 'hex'));
  return ok
    ? { valid: true, reason: 'Signature verified' }
    : { valid: false, reason: 'Signature does not match the manifest' };
}
