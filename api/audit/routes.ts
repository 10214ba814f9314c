import { Router } from 'express';
import { z } from 'zod';
import { ErrorBodySchema } from '../../schemas/common';
import { auditForJob, recentAudit, type AuditRow } from '../../store/audit/repo';
import { getJob } from '../../store/jobs/jobs';
import { readRunLog } from '../../store/jobs/run-logs';
import type { RouteModule } from '../deps';
import { notFound } from '../middleware/http-error';
import { parsed, validate } from '../middleware/validate';
import { toEvent } from '../jobs/events';

const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) });
const jobParams = z.object({ jobId: z.string().min(1).max(200) });
const list = { query: listQuery };
const byJob = { params: jobParams };

function auditItem(row: AuditRow) {
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

/** The audit trail (newest first) and the full run log of one job. */
export const auditRoutes: RouteModule = {
  name: 'audit',
  router(deps) {
    return Router()
      .get('/audit', validate(list), async (_req, res) => {
        const rows = await recentAudit(deps.store.db, parsed(res, list).query.limit);
        res.json(rows.map(auditItem));
      })
      .get('/audit/:jobId/logs', validate(byJob), async (_req, res) => {
        const { jobId } = parsed(res, byJob).params;
        const [job, audit, logs] = await Promise.all([
          getJob(deps.store.db, jobId),
          auditForJob(deps.store.db, jobId),
          readRunLog(deps.store.db, jobId),
        ]);
        if (!job && audit.length === 0) throw notFound(`No job ${jobId}`);
        res.json({
          job_id: jobId,
          status: job?.status ?? null,
          error: job?.error ?? null,
          audit: audit.map(auditItem),
          logs: logs.map(toEvent),
        });
      });
  },
  openapi(registry) {
    const ok = (description: string) => ({ description, content: { 'application/json': { schema: z.unknown() } } });
    registry.registerPath({
      method: 'get',
      path: '/api/audit',
      tags: ['audit'],
      summary: 'Audit trail, newest first',
      request: { query: listQuery },
      responses: { 200: ok('Audit rows') },
    });
    registry.registerPath({
      method: 'get',
      path: '/api/audit/{jobId}/logs',
      tags: ['audit'],
      summary: 'Full run log and audit trail of a job',
      request: { params: jobParams },
      responses: {
        200: ok('Run log'),
        404: { description: 'Unknown job', content: { 'application/json': { schema: ErrorBodySchema } } },
      },
    });
  },
};
