import { buildManifest, signManifest, type SignedEnvelope } from '../clone/provenance/sign';
import { loadOrCreateSigningKey, type KeyOptions, type SigningKey } from '../clone/provenance/keys';
import type { JobRow } from '../../store/jobs/jobs';
import type { JobEnd } from '../../workflows/jobs/definitions';

/** Gives the provenance signing key (loaded once, on first use). */
export type SigningKeySource = () => SigningKey;

/** The same key the API's /api/clone-provenance routes use: config `provenance.private_key`, else the data folder. */
export function lazySigningKey(opts: KeyOptions): SigningKeySource {
  let key: SigningKey | undefined;
  return () => (key ??= loadOrCreateSigningKey(opts));
}

/**
 * The compliance report of a finished job: a manifest of the job (its stored request as config, its end as
 * result) signed with the service key, ready for POST /api/clone-provenance/verify. A missing or broken key
 * must not lose the job's end, so it is reported in `provenance_error` instead.
 */
export function complianceEnvelope(
  row: Pick<JobRow, 'jobId' | 'sourceCatalog' | 'destinationCatalog' | 'request'>,
  end: JobEnd,
  summary: Record<string, unknown> | null,
  key: SigningKeySource | undefined,
): { provenance: SignedEnvelope } | { provenance_error: string } {
  if (!key) return { provenance_error: 'compliance_report: no provenance signing key is configured for the worker' };
  try {
    const manifest = buildManifest(
      {
        job_id: row.jobId,
        source_catalog: row.sourceCatalog ?? '',
        destination_catalog: row.destinationCatalog ?? '',
        config: row.request ?? {},
        result: { status: end.status, ...(summary ?? {}), error: end.error ?? undefined },
      },
      new Date(),
    );
    return { provenance: signManifest(manifest, key()) };
  } catch (err) {
    return { provenance_error: `compliance_report: signing failed: ${(err as Error).message}` };
  }
}
