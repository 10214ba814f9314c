import { z } from 'zod';
import { IdentifierSchema, paginationQuery } from '../../schemas/common';
import { auditForJob, recentAudit, type AuditRow } from '../../store/audit/repo';
import { getJob } from '../../store/jobs/jobs';
import { readRunLog } from '../../store/jobs/run-logs';
import { notFound } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import { toEvent } from '../jobs/events';

const AuditItemSchema = z.object({
  audit_id: z.string(),
  job_id: z.string().nullable(),
  action: z.string(),
  status: z.string().nullable(),
  duration: z.number().nullable(),
  duration_ms: z.number().nullable(),
  error: z.string().nullable(),
  details: z.unknown(),
  created_at: z.string(),
});

function auditItem(row: AuditRow): z.input<typeof AuditItemSchema> {
  return {
    audit_id: row.id,
    job_id: row.jobId,
    action: row.action,
    status: row.status,
    duration: row.durationMs === null ? null : row.durationMs / 1000,
    duration_ms: row.durationMs,
    error: row.error,
    details: row.details,
    created_at: row.createdAt.toISOString(),
  };
}

const jobLogs = z.object({
  job_id: z.string(),
  status: z.string().nullable(),
  error: z.string().nullable(),
  audit: z.array(AuditItemSchema),
  logs: z.array(z.record(z.string(), z.unknown())),
});

/** The audit trail (newest first) and the full run log of one job. */
export const auditRoutes = defineRoutes({
  name: 'audit',
  routes: [
    route({
      method: 'get',
      path: '/audit',
      summary: 'Audit trail, newest first',
      request: { query: paginationQuery(100) },
      response: { description: 'Audit rows', schema: z.array(AuditItemSchema) },
      handler: async ({ deps, input }) =>
        (await recentAudit(deps.store.db, input.query.limit, input.query.offset)).map(auditItem),
    }),
    route({
      method: 'get',
      path: '/audit/:jobId/logs',
      summary: 'Full run log and audit trail of a job',
      request: { params: z.object({ jobId: IdentifierSchema }) },
      response: { description: 'Run log', schema: jobLogs },
      errors: { 404: 'Unknown job' },
      handler: async ({ deps, input }) => {
        const { jobId } = input.params;
        const [job, audit, logs] = await Promise.all([
          getJob(deps.store.db, jobId),
          auditForJob(deps.store.db, jobId),
          readRunLog(deps.store.db, jobId),
        ]);
        if (!job && audit.length === 0) throw notFound(`No job ${jobId}`);
        return {
          job_id: jobId,
          status: job?.status ?? null,
          error: job?.error ?? null,
          audit: audit.map(auditItem),
          logs: logs.map(toEvent),
        };
      },
    }),
  ],
});
