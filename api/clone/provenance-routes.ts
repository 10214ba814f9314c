import { z } from 'zod';
import { loadOrCreateSigningKey, type SigningKey } from '../../config/provenance-key';
import {
  buildManifest,
  signManifest,
  verifyEnvelope,
  type ManifestInput,
} from '../../activities/clone/logic/provenance-sign';
import { provenanceSignSchema, provenanceVerifySchema } from '../../schemas/clone-safety';
import { recordAudit } from '../../store/audit/repo';
import { getJob } from '../../store/jobs/jobs';
import type { AppDeps } from '../deps';
import { notFound } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';

/** The signing key: `provenance.private_key` from config when present, else generated in the data folder. */
function keyFor(deps: AppDeps): () => SigningKey {
  let key: SigningKey | undefined;
  const configured = deps.config.provenance.private_key;
  return () => (key ??= loadOrCreateSigningKey({ dataDir: deps.config.data_dir, privateKeyPem: configured }));
}

/** Manifest fields of a job: source, destination, the effective options it ran with and its summary. */
async function jobManifestInput(deps: AppDeps, body: z.infer<typeof provenanceSignSchema>): Promise<ManifestInput> {
  // The schema guarantees both catalogs when no job id is given.
  if (!body.job_id)
    return { ...body, source_catalog: body.source_catalog!, destination_catalog: body.destination_catalog! };
  const job = await getJob(deps.store.db, body.job_id);
  if (!job) throw notFound(`job ${body.job_id} not found`);
  return {
    job_id: job.jobId,
    source_catalog: body.source_catalog ?? job.sourceCatalog ?? '',
    destination_catalog: body.destination_catalog ?? job.destinationCatalog ?? '',
    config: body.config ?? job.request ?? {},
    result: body.result ?? { status: job.status, ...(job.summary ?? {}), error: job.error ?? undefined },
  };
}

const keys = new WeakMap<AppDeps, () => SigningKey>();
const keyOf = (deps: AppDeps) => keys.get(deps)!();
const record = z.record(z.string(), z.unknown());

/** Signed clone provenance: Ed25519 over a canonical manifest; anyone with the public key can verify. */
export const provenanceRoutes = defineRoutes({
  name: 'provenance',
  state: (deps) => keys.set(deps, keyFor(deps)),
  routes: [
    route({
      method: 'post',
      path: '/clone-provenance/sign',
      summary: 'Sign a clone manifest (Ed25519)',
      request: { body: provenanceSignSchema },
      response: { description: 'Signed envelope', schema: record },
      errors: { 404: 'Unknown job' },
      handler: async ({ deps, input }) => {
        const manifest = buildManifest(await jobManifestInput(deps, input.body), new Date());
        const envelope = signManifest(manifest, keyOf(deps)) as unknown as Record<string, unknown>;
        // Compliance frameworks count signed manifests as evidence (evidence type provenance_signature).
        await recordAudit(deps.store.db, {
          jobId: input.body.job_id ?? null,
          action: 'provenance_signed',
          status: 'completed',
          details: {
            key_id: keyOf(deps).keyId,
            source_catalog: manifest.source_catalog,
            destination_catalog: manifest.destination_catalog,
          },
        });
        return envelope;
      },
    }),
    route({
      method: 'get',
      path: '/clone-provenance/public-key',
      summary: 'The public key that verifies signed manifests',
      response: {
        description: 'Public key (SPKI PEM)',
        schema: z.object({ algorithm: z.literal('Ed25519'), key_id: z.string(), public_key: z.string() }),
      },
      handler: ({ deps }) => {
        const k = keyOf(deps);
        return { algorithm: 'Ed25519' as const, key_id: k.keyId, public_key: k.publicKeyPem };
      },
    }),
    route({
      method: 'post',
      path: '/clone-provenance/verify',
      summary: 'Verify a signed envelope, given alone or as {envelope, public_key}',
      role: 'viewer',
      request: { body: provenanceVerifySchema },
      response: { description: 'Verdict', schema: z.object({ valid: z.boolean(), reason: z.string() }) },
      handler: ({ deps, input }) => {
        const body = input.body as Record<string, unknown>;
        const wrapped = 'envelope' in body && typeof body.envelope === 'object' && !('manifest' in body);
        const envelope = wrapped ? body.envelope : body;
        const publicKey = wrapped && typeof body.public_key === 'string' ? body.public_key : keyOf(deps);
        return verifyEnvelope(envelope, publicKey);
      },
    }),
  ],
});
