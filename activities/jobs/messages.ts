import type { JobRow } from '../../store/jobs/jobs';
import type { CloneSummary } from '../../workflows/clone/definitions';
import type { JobEnd } from '../../workflows/jobs/definitions';

const FINAL = new Set(['completed', 'failed', 'cancelled', 'aborted']);

export function isFinalStatus(status: string): boolean {
  return FINAL.has(status);
}

/** One line for notifications and the run log, e.g. "Clone sales → sales_dev completed: 12 tables cloned, 1 failed". */
export function endMessage(row: Pick<JobRow, 'sourceCatalog' | 'destinationCatalog'>, end: JobEnd): string {
  const what = `Clone ${row.sourceCatalog ?? '?'} → ${row.destinationCatalog ?? '?'}`;
  const counts = end.summary ? `: ${end.summary.tables_cloned} tables cloned, ${end.summary.tables_failed} failed` : '';
  const error = end.error ? ` (${end.error})` : '';
  return `${what} ${end.status}${counts}${error}`;
}

export function summaryDetails(summary: CloneSummary | null | undefined): Record<string, unknown> {
  if (!summary) return {};
  const { tables_cloned, tables_failed, tables_skipped, bytes_copied, duration_seconds } = summary;
  return { tables_cloned, tables_failed, tables_skipped, bytes_copied, duration_seconds };
}
