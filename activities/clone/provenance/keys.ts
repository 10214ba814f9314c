// The key file lives with the configuration (config/provenance-key); this name stays for activities/jobs.
export { loadOrCreateSigningKey, type KeyOptions, type SigningKey } from '../../../config/provenance-key';
