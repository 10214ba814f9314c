import type { JobRow } from '../../store/jobs/jobs';
import type { RunLogRow } from '../../store/jobs/run-logs';
import type { CloneProgress, CloneSummary } from '../../workflows/clone/definitions';
import type { LiveState } from './live-status';

const FINAL = new Set(['completed', 'failed', 'cancelled', 'aborted']);

export interface JobProgress {
  completed: number;
  total: number;
  /** Server-mode forms: "n/m". */
  schemas: string;
  tables: string;
  tables_failed: number;
  tables_skipped: number;
}

export function isFinal(status: string): boolean {
  return FINAL.has(status);
}

/** The status to show: the jobs row once it is final, otherwise what Temporal (or the queue) says. */
export function effectiveStatus(row: JobRow, live: LiveState | null, queued: boolean): string {
  if (isFinal(row.status)) return row.status;
  if (live?.status) return live.status;
  return queued ? 'queued' : row.status;
}

export function progressOf(summary: Partial<CloneSummary> | null, live: CloneProgress | null): JobProgress {
  if (live) {
    const t = live.tables;
    const done = t.completed + t.failed + t.skipped;
    return {
      completed: done,
      total: t.total,
      schemas: `${live.schemas.completed}/${live.schemas.total}`,
      tables: `${done}/${t.total}`,
      tables_failed: t.failed,
      tables_skipped: t.skipped,
    };
  }
  const cloned = summary?.tables_cloned ?? 0;
  const failed = summary?.tables_failed ?? 0;
  const skipped = summary?.tables_skipped ?? 0;
  const total = cloned + failed + skipped;
  return {
    completed: total,
    total,
    schemas: summary ? 'done' : '0/0',
    tables: `${total}/${total}`,
    tables_failed: failed,
    tables_skipped: skipped,
  };
}

/** One line of the jobs list (GET /api/clone/jobs). */
export function jobListItem(row: JobRow, status: string, progress: JobProgress, closedAt: Date | null = null) {
  return {
    job_id: row.jobId,
    status,
    source_catalog: row.sourceCatalog,
    destination_catalog: row.destinationCatalog,
    clone_type: row.cloneType,
    progress,
    created_at: row.createdAt.toISOString(),
    completed_at: (row.completedAt ?? closedAt)?.toISOString() ?? null,
  };
}

/** The job record (GET /api/clone/{job_id}): list fields, result, summary fields, logs and server-mode aliases. */
export function jobRecord(
  row: JobRow,
  status: string,
  live: LiveState | null,
  logs: RunLogRow[],
  position: number | null,
) {
  const summary = (row.summary ?? live?.summary ?? null) as Partial<CloneSummary> | null;
  const progress = progressOf(summary, live?.progress ?? null);
  const { jobId: _id, status: _s, ...summaryFields } = summary ?? {};
  const end = row.completedAt ?? live?.closedAt ?? null;
  const start = row.startedAt ?? null;
  return {
    ...summaryFields,
    ...jobListItem(row, status, progress, end),
    id: row.jobId,
    source: row.sourceCatalog,
    destination: row.destinationCatalog,
    queue_position: status === 'queued' ? position : null,
    result: summary ? { ...summaryFields } : null,
    error: row.error,
    logs: logs.map(logLine),
    started_at: start?.toISOString() ?? null,
    duration_seconds: summary?.duration_seconds ?? (start && end ? (end.getTime() - start.getTime()) / 1000 : null),
    request: row.request,
  };
}

export function logLine(row: RunLogRow): string {
  return `${row.ts.toISOString()} ${row.level.toUpperCase()} ${row.message}`;
}
