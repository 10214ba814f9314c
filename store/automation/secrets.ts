import { targetCipherFor, type CredentialEnvelope } from '../targets/cipher';

/**
 * Playbook secrets at rest (a webhook's signing secret): AES-256-GCM with `automation.secrets_key`, else the saved
 * targets' key (`targets.credentials_key` or the key file in the data folder). Only the envelope is stored.
 */
export function automationCipher(config: {
  data_dir: string;
  targets: { credentials_key: string | null };
  automation: { secrets_key: string | null };
}) {
  const cipher = targetCipherFor({
    configured: config.automation.secrets_key ?? config.targets.credentials_key,
    dataDir: config.data_dir,
  });
  return {
    seal: (secret: string): CredentialEnvelope => cipher.seal({ secret }),
    open: (envelope: Record<string, string>): string => cipher.open(envelope).secret,
  };
}
