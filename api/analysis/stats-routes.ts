import { desc } from 'drizzle-orm';
import { z } from 'zod';
import { catalogHealth, dashboardStats, jobMetrics, type JobFacts } from '../../activities/analysis/logic/job-stats';
import { jobs } from '../../store/schema';
import type { AppDeps } from '../deps';
import { route } from '../middleware/route';

/** The newest 10,000 jobs of every type: enough history for trends, bounded for the API. */
async function history(deps: AppDeps): Promise<JobFacts[]> {
  return deps.store.db
    .select({
      jobId: jobs.jobId,
      jobType: jobs.jobType,
      status: jobs.status,
      sourceCatalog: jobs.sourceCatalog,
      destinationCatalog: jobs.destinationCatalog,
      createdAt: jobs.createdAt,
      startedAt: jobs.startedAt,
      completedAt: jobs.completedAt,
      summary: jobs.summary,
    })
    .from(jobs)
    .orderBy(desc(jobs.createdAt))
    .limit(10_000);
}

const Throughput = z.object({
  tables_per_second: z.number().nullable(),
  bytes_per_second: z.number().nullable(),
  tables_copied: z.number(),
  bytes_copied: z.number(),
  busy_seconds: z.number(),
});
const MetricsSchema = z.object({
  total_jobs: z.number(),
  finished_jobs: z.number(),
  failed_jobs: z.number(),
  failure_rate: z.number(),
  throughput: Throughput,
  avg_duration_seconds: z.number().nullable(),
  trends: z.array(
    z.object({
      date: z.string(),
      jobs: z.number(),
      failed: z.number(),
      failure_rate: z.number(),
      avg_duration_seconds: z.number().nullable(),
    }),
  ),
});
const HealthSchema = z.object({
  catalogs: z.array(
    z.object({
      catalog: z.string(),
      total: z.number(),
      succeeded: z.number(),
      failed: z.number(),
      last_operation: z.object({ job_id: z.string(), job_type: z.string(), status: z.string(), at: z.string() }),
      score: z.number(),
    }),
  ),
});
const JobBrief = z.object({ job_id: z.string(), job_type: z.string(), status: z.string(), created_at: z.string() });
const DashboardSchema = z.object({
  total_jobs: z.number(),
  by_status: z.record(z.string(), z.number()),
  by_type: z.record(z.string(), z.number()),
  running: z.number(),
  queued: z.number(),
  catalogs: z.number(),
  tables_copied: z.number(),
  bytes_copied: z.number(),
  failure_rate: z.number(),
  last_24h: z.object({ jobs: z.number(), failed: z.number() }),
  recent_jobs: z.array(JobBrief),
});

export const statsRoutes = [
  route({
    method: 'get',
    path: '/monitor/metrics',
    summary: 'Throughput (tables/s, bytes/s), failure rate and daily duration trends from job history',
    response: { description: 'Metrics', schema: MetricsSchema },
    handler: async ({ deps }) => jobMetrics(await history(deps)),
  }),
  route({
    method: 'get',
    path: '/catalog-health',
    summary: 'Per catalog: jobs, successes, failures, the last operation and a score (success share)',
    response: { description: 'Health', schema: HealthSchema },
    handler: async ({ deps }) => ({ catalogs: catalogHealth(await history(deps)) }),
  }),
  route({
    method: 'get',
    path: '/dashboard/stats',
    summary: 'Job counts by status and type, copied totals, the last 24 hours and the newest jobs',
    response: { description: 'Stats', schema: DashboardSchema },
    handler: async ({ deps }) => dashboardStats(await history(deps), new Date()),
  }),
];
