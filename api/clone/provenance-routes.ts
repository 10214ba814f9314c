import { Router } from 'express';
import { z } from 'zod';
import { loadOrCreateSigningKey, type SigningKey } from '../../config/provenance-key';
import {
  buildManifest,
  signManifest,
  verifyEnvelope,
  type ManifestInput,
} from '../../activities/clone/logic/provenance-sign';
import { ErrorBodySchema } from '../../schemas/common';
import { provenanceSignSchema, provenanceVerifySchema } from '../../schemas/safety';
import { getJob } from '../../store/jobs/jobs';
import type { AppDeps, RouteModule } from '../deps';
import { notFound } from '../middleware/http-error';
import { parsed, validate } from '../middleware/validate';

const sign = { body: provenanceSignSchema };
const verify = { body: provenanceVerifySchema };

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

/** Signed clone provenance: Ed25519 over a canonical manifest; anyone with the public key can verify. */
export const provenanceRoutes: RouteModule = {
  name: 'provenance',
  router(deps) {
    const key = keyFor(deps);
    const router = Router();
    router.post('/clone-provenance/sign', validate(sign), async (_req, res) => {
      const input = await jobManifestInput(deps, parsed(res, sign).body);
      res.json(signManifest(buildManifest(input, new Date()), key()));
    });
    router.get('/clone-provenance/public-key', (_req, res) => {
      const k = key();
      res.json({ algorithm: 'Ed25519', key_id: k.keyId, public_key: k.publicKeyPem });
    });
    router.post('/clone-provenance/verify', validate(verify), (_req, res) => {
      const body = parsed(res, verify).body as Record<string, unknown>;
      const wrapped = 'envelope' in body && typeof body.envelope === 'object' && !('manifest' in body);
      const envelope = wrapped ? body.envelope : body;
      const publicKey = wrapped && typeof body.public_key === 'string' ? body.public_key : key();
      res.json(verifyEnvelope(envelope, publicKey));
    });
    return router;
  },
  openapi(registry) {
    const error = (description: string) => ({
      description,
      content: { 'application/json': { schema: ErrorBodySchema } },
    });
    const json = (description: string, schema: z.ZodType = z.record(z.string(), z.unknown())) => ({
      description,
      content: { 'application/json': { schema } },
    });
    registry.registerPath({
      method: 'post',
      path: '/api/clone-provenance/sign',
      tags: ['provenance'],
      summary: 'Sign a clone manifest (Ed25519)',
      request: { body: { content: { 'application/json': { schema: provenanceSignSchema } } } },
      responses: { 200: json('Signed envelope'), 400: error('Invalid request'), 404: error('Unknown job') },
    });
    registry.registerPath({
      method: 'get',
      path: '/api/clone-provenance/public-key',
      tags: ['provenance'],
      summary: 'The public key that verifies signed manifests',
      responses: { 200: json('Public key (SPKI PEM)') },
    });
    registry.registerPath({
      method: 'post',
      path: '/api/clone-provenance/verify',
      tags: ['provenance'],
      summary: 'Verify a signed envelope',
      request: { body: { content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } },
      responses: { 200: json('Verdict', z.object({ valid: z.boolean(), reason: z.string() })) },
    });
  },
};
