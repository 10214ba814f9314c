import { isFinalJobStatus, JobStatusSchema, type JobProgress, type JobStatus } from '../../schemas/jobs';
import type { JobRow } from '../../store/jobs/jobs';
import type { RunLogRow } from '../../store/jobs/run-logs';
import type { JobTypeDefinition } from './registry';

/** The progress a job reported itself (reportJobProgress), or counts from its recorded result once it ended. */
export function reportedProgress(row: JobRow): JobProgress {
  const p = (row.progress ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const completed = num(p.completed);
  const total = Math.max(num(p.total), completed);
  return {
    completed,
    total,
    schemas: typeof p.schemas === 'string' ? p.schemas : isFinalJobStatus(row.status) ? 'done' : '0/0',
    tables: `${completed}/${total}`,
    tables_failed: num(p.failed),
    tables_skipped: num(p.skipped),
    eta_seconds: null,
  };
}

export async function progressOf(
  def: JobTypeDefinition | undefined,
  db: Parameters<NonNullable<JobTypeDefinition['progress']>>[0],
  row: JobRow,
): Promise<JobProgress> {
  return def?.progress ? def.progress(db, row) : reportedProgress(row);
}

/**
 * The progress of a page of jobs, in row order: each type's rows in one `progressMany` call when the type has
 * one (a few reads for the whole page instead of a few per job), else `progressOf` per row.
 */
export async function progressOfPage(
  defOf: (type: string) => JobTypeDefinition | undefined,
  db: Parameters<NonNullable<JobTypeDefinition['progress']>>[0],
  rows: JobRow[],
): Promise<JobProgress[]> {
  const out: JobProgress[] = new Array(rows.length);
  const byType = new Map<string, number[]>();
  rows.forEach((row, i) => byType.set(row.jobType, [...(byType.get(row.jobType) ?? []), i]));
  await Promise.all(
    [...byType].map(async ([type, idx]) => {
      const def = defOf(type);
      const mine = idx.map((i) => rows[i]);
      const progress = def?.progressMany
        ? await def.progressMany(db, mine)
        : await Promise.all(mine.map((row) => progressOf(def, db, row)));
      idx.forEach((i, k) => (out[i] = progress[k]));
    }),
  );
  return out;
}

function statusOf(row: JobRow): JobStatus {
  const parsed = JobStatusSchema.safeParse(row.status);
  return parsed.success ? parsed.data : 'failed';
}

/** One line of a jobs list (GET /api/jobs, GET /api/clone/jobs): what the store has recorded. */
export function jobListItem(row: JobRow, progress: JobProgress, def?: JobTypeDefinition) {
  return {
    job_id: row.jobId,
    job_type: row.jobType,
    status: statusOf(row),
    ...(def?.describe?.(row) ?? {}),
    progress,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    completed_at: row.completedAt?.toISOString() ?? null,
    cancel_requested_at: row.cancelRequestedAt?.toISOString() ?? null,
    error: row.error,
  };
}

export function logLine(row: Pick<RunLogRow, 'ts' | 'level' | 'message'>): string {
  return `${row.ts.toISOString()} ${row.level.toUpperCase()} ${row.message}`;
}
