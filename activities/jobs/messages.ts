import type { JobRow } from '../../store/jobs/jobs';
import type { JobEnd } from '../../workflows/jobs/definitions';
export { isFinalJobStatus as isFinalStatus } from '../../schemas/jobs';

/**
 * One line for notifications and the run log: "Clone sales → sales_dev completed: 12 tables cloned, 1 failed",
 * or for other job types "Sync job sync-… failed (the cause)".
 */
export function endMessage(
  row: Pick<JobRow, 'jobId' | 'jobType' | 'sourceCatalog' | 'destinationCatalog'>,
  end: JobEnd,
): string {
  const type = row.jobType.charAt(0).toUpperCase() + row.jobType.slice(1);
  const what =
    row.sourceCatalog || row.destinationCatalog
      ? `${type} ${row.sourceCatalog ?? '?'} → ${row.destinationCatalog ?? '?'}`
      : `${type} job ${row.jobId}`;
  const s = end.summary as Record<string, unknown> | null | undefined;
  const counts =
    s && typeof s.tables_cloned === 'number'
      ? `: ${s.tables_cloned} tables cloned, ${typeof s.tables_failed === 'number' ? s.tables_failed : 0} failed`
      : '';
  const error = end.error ? ` (${end.error})` : '';
  return `${what} ${end.status}${counts}${error}`;
}

/** The counters of a job's result worth keeping in its audit row. */
export function summaryDetails(summary: Record<string, unknown> | null | undefined): Record<string, unknown> {
  if (!summary) return {};
  const keep = ['tables_cloned', 'tables_failed', 'tables_skipped', 'bytes_copied', 'duration_seconds'];
  return Object.fromEntries(Object.entries(summary).filter(([k, v]) => keep.includes(k) && typeof v === 'number'));
}
