// Signing is pure (activities/clone/logic/provenance-sign); this name stays for activities/jobs.
export { buildManifest, signManifest, type SignedEnvelope } from '../logic/provenance-sign';
