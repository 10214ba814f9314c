import { table, type JobView } from './mdm-shared';

/** The text `lakeward mdm ingest` and `lakeward mdm match` print for their jobs. */

interface IngestSummary {
  system: string;
  rows_read?: number;
  rows_written?: number;
  skipped?: Record<string, number>;
  duplicate_keys?: number;
  changed?: number;
  vanished?: number;
  error?: string;
}
/** The ingest summary, one line per source. */
export function ingestReport(job: JobView): string {
  const head = `${job.job_id}: ${job.status}${job.error ? ` (${job.error})` : ''}`;
  const sources = (job.result?.sources ?? []) as IngestSummary[];
  if (!sources.length) return head;
  return [
    head,
    table(
      ['system', 'read', 'records', 'changed', 'vanished', 'dup keys', 'skipped'],
      sources.map((s) =>
        s.error
          ? [s.system, '-', '-', '-', '-', '-', `failed: ${s.error}`]
          : [
              s.system,
              s.rows_read ?? 0,
              s.rows_written ?? 0,
              s.changed ?? 0,
              s.vanished ?? 0,
              s.duplicate_keys ?? 0,
              Object.entries(s.skipped ?? {})
                .map(([why, n]) => `${n} ${why}`)
                .join(', ') || '-',
            ],
      ),
    ),
  ].join('\n');
}
interface MatchResult {
  records?: number;
  bands?: { merged: number; reviewable: number; suspected: number; apart: number };
  pairs_per_rule?: Record<string, number>;
  clusters?: number;
  golden_records?: { created: number; merged: number; archived: number; active: number; under_review: number };
  step_ms?: Record<string, number>;
}

const STEP_ORDER = ['blocking', 'comparing', 'training', 'scoring', 'clustering', 'publishing'];

/** The match report: pairs per rule and band, golden records, time per step. */
export function matchReport(job: JobView): string {
  const head = `${job.job_id}: ${job.status}${job.error ? ` (${job.error})` : ''}`;
  const r = job.result as MatchResult | null;
  if (!r?.bands || !r.golden_records) return head;
  const g = r.golden_records;
  return [
    head,
    `${r.records} records; pairs per rule: ${Object.entries(r.pairs_per_rule ?? {})
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `pairs by band: ${r.bands.merged} merged (≥ 95), ${r.bands.reviewable} reviewable (75–94), ` +
      `${r.bands.suspected} suspected, ${r.bands.apart} apart`,
    `golden records: ${r.clusters} (${g.created} created, ${g.merged} merged, ${g.archived} archived; ` +
      `${g.active} active, ${g.under_review} under review)`,
    `time per step (ms): ${STEP_ORDER.filter((k) => r.step_ms?.[k] !== undefined)
      .map((k) => `${k} ${r.step_ms?.[k]}`)
      .join(', ')}`,
  ].join('\n');
}
