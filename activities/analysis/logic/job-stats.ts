/**
 * Throughput, failure rate, duration trends and per-catalog health from job history. Pure: the caller reads
 * the jobs from the store and passes the clock's "now".
 */
export interface JobFacts {
  jobId: string;
  jobType: string;
  status: string;
  sourceCatalog: string | null;
  destinationCatalog: string | null;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  summary: Record<string, unknown> | null;
}

const FINISHED = new Set(['completed', 'failed', 'cancelled', 'aborted']);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const seconds = (j: JobFacts) =>
  j.startedAt && j.completedAt ? Math.max(0, (j.completedAt.getTime() - j.startedAt.getTime()) / 1000) : null;

/** A failed or aborted job counts as failed; a cancelled one is neither a success nor a failure. */
const failed = (j: JobFacts) => j.status === 'failed' || j.status === 'aborted';

export function jobMetrics(jobs: JobFacts[]) {
  const finished = jobs.filter((j) => FINISHED.has(j.status));
  const ran = finished.filter((j) => seconds(j) !== null);
  const busy = ran.reduce((s, j) => s + seconds(j)!, 0);
  const tables = ran.reduce((s, j) => s + num(j.summary?.tables_cloned), 0);
  const bytes = ran.reduce((s, j) => s + num(j.summary?.bytes_copied), 0);
  const failures = finished.filter(failed).length;
  const days = new Map<string, JobFacts[]>();
  for (const j of finished) {
    const day = (j.completedAt ?? j.createdAt).toISOString().slice(0, 10);
    days.set(day, [...(days.get(day) ?? []), j]);
  }
  const trends = [...days.keys()].sort().map((date) => {
    const js = days.get(date)!;
    const ds = js.map(seconds).filter((s): s is number => s !== null);
    return {
      date,
      jobs: js.length,
      failed: js.filter(failed).length,
      failure_rate: round(js.filter(failed).length / js.length, 4),
      avg_duration_seconds: ds.length ? round(ds.reduce((a, b) => a + b, 0) / ds.length) : null,
    };
  });
  return {
    total_jobs: jobs.length,
    finished_jobs: finished.length,
    failed_jobs: failures,
    failure_rate: finished.length ? round(failures / finished.length, 4) : 0,
    throughput: {
      tables_per_second: busy > 0 ? round(tables / busy, 4) : null,
      bytes_per_second: busy > 0 ? round(bytes / busy) : null,
      tables_copied: tables,
      bytes_copied: bytes,
      busy_seconds: round(busy),
    },
    avg_duration_seconds: ran.length ? round(busy / ran.length) : null,
    trends,
  };
}

/**
 * Health per catalog a job read or wrote: succeeded and failed counts of its finished jobs, the newest job,
 * and a score = succeeded / (succeeded + failed) × 100, rounded (100 while nothing has failed or finished).
 */
export function catalogHealth(jobs: JobFacts[]) {
  const by = new Map<string, JobFacts[]>();
  for (const j of jobs)
    for (const c of new Set([j.sourceCatalog, j.destinationCatalog].filter((x): x is string => !!x)))
      by.set(c, [...(by.get(c) ?? []), j]);
  return [...by.keys()].sort().map((catalog) => {
    const js = by.get(catalog)!;
    const succeeded = js.filter((j) => j.status === 'completed').length;
    const bad = js.filter(failed).length;
    const last = js.reduce((a, b) => (b.createdAt > a.createdAt ? b : a));
    return {
      catalog,
      total: js.length,
      succeeded,
      failed: bad,
      last_operation: {
        job_id: last.jobId,
        job_type: last.jobType,
        status: last.status,
        at: (last.completedAt ?? last.createdAt).toISOString(),
      },
      score: succeeded + bad === 0 ? 100 : Math.round((succeeded / (succeeded + bad)) * 100),
    };
  });
}

export function dashboardStats(jobs: JobFacts[], now: Date) {
  const count = (key: (j: JobFacts) => string) => {
    const out: Record<string, number> = {};
    for (const j of jobs) out[key(j)] = (out[key(j)] ?? 0) + 1;
    return out;
  };
  const dayAgo = now.getTime() - 24 * 3600 * 1000;
  const recent = jobs.filter((j) => j.createdAt.getTime() >= dayAgo);
  const m = jobMetrics(jobs);
  return {
    total_jobs: jobs.length,
    by_status: count((j) => j.status),
    by_type: count((j) => j.jobType),
    running: jobs.filter((j) => j.status === 'running' || j.status === 'cancelling').length,
    queued: jobs.filter((j) => j.status === 'queued').length,
    catalogs: catalogHealth(jobs).length,
    tables_copied: m.throughput.tables_copied,
    bytes_copied: m.throughput.bytes_copied,
    failure_rate: m.failure_rate,
    last_24h: { jobs: recent.length, failed: recent.filter(failed).length },
    recent_jobs: [...jobs]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .slice(0, 5)
      .map((j) => ({ job_id: j.jobId, job_type: j.jobType, status: j.status, created_at: j.createdAt.toISOString() })),
  };
}
