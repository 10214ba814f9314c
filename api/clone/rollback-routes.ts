import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { Router } from 'express';
import { z } from 'zod';
import { rollbackLogView } from '../../activities/clone/logic/rollback-view';
import { ErrorBodySchema } from '../../schemas/common';
import {
  jobIdParamsSchema,
  logIdParamsSchema,
  rollbackLogsQuerySchema,
  rollbackRequestSchema,
} from '../../schemas/safety';
import { getRollbackLog, rollbackLogsForJob } from '../../store/clone/rollback-logs';
import { listRollbackLogsWithEntries } from '../../store/clone/safety-rollback';
import { releaseQuiesceSignal } from '../../workflows/clone/definitions';
import { rollbackWorkflowId, type RollbackResult } from '../../workflows/clone/rollback-definitions';
import type { AppDeps, RouteModule } from '../deps';
import { HttpError, notFound } from '../middleware/http-error';
import { parsed, validate } from '../middleware/validate';

const start = { body: rollbackRequestSchema };
const logs = { query: rollbackLogsQuerySchema };
const byLog = { params: logIdParamsSchema };
const byJob = { params: jobIdParamsSchema };

function temporal(deps: AppDeps) {
  if (!deps.temporal) throw new HttpError(503, 'UNAVAILABLE', 'Temporal is not connected');
  return deps.temporal.client;
}

/** Starts (or joins, when one is running) the rollback workflow of one log. Idempotent by workflow id. */
async function startRollback(deps: AppDeps, logId: string) {
  const client = temporal(deps);
  const workflowId = rollbackWorkflowId(logId);
  try {
    const handle = await client.workflow.start('rollbackWorkflow', {
      taskQueue: deps.config.temporal.task_queue,
      workflowId,
      args: [{ rollbackId: logId, reason: 'manual' }],
    });
    return { log_id: logId, workflow_id: workflowId, status: 'started' as const, handle };
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return {
      log_id: logId,
      workflow_id: workflowId,
      status: 'running' as const,
      handle: client.workflow.getHandle(workflowId),
    };
  }
}

/** Rollback of clone jobs: start (by job or log), list logs with counts, inspect one; early quiesce release. */
export const rollbackRoutes: RouteModule = {
  name: 'rollback',
  router(deps) {
    const router = Router();
    router.post('/rollback', validate(start), async (_req, res) => {
      const body = parsed(res, start).body;
      const ids = body.log_id
        ? [body.log_id]
        : (await rollbackLogsForJob(deps.store.db, body.job_id!)).map((l) => l.id);
      if (body.log_id && !(await getRollbackLog(deps.store.db, body.log_id)))
        throw notFound(`rollback log ${body.log_id} not found`);
      if (ids.length === 0) throw notFound(`no rollback log for job ${body.job_id} (was enable_rollback off?)`);
      const started = [];
      for (const id of ids) started.push(await startRollback(deps, id));
      if (!body.wait) {
        res.status(202).json({ job_id: body.job_id ?? null, rollbacks: started.map(({ handle: _h, ...r }) => r) });
        return;
      }
      const results = [];
      for (const s of started)
        results.push({
          log_id: s.log_id,
          workflow_id: s.workflow_id,
          result: (await s.handle.result()) as RollbackResult,
        });
      res.json({ job_id: body.job_id ?? null, rollbacks: results });
    });
    router.get('/rollback/logs', validate(logs), async (_req, res) => {
      const q = parsed(res, logs).query;
      const rows = await listRollbackLogsWithEntries(deps.store.db, { jobId: q.job_id, limit: q.limit });
      res.json({ logs: rows.map(rollbackLogView) });
    });
    router.get('/rollback/:logId', validate(byLog), async (_req, res) => {
      const { logId } = parsed(res, byLog).params;
      const log = await getRollbackLog(deps.store.db, logId);
      if (!log) throw notFound(`rollback log ${logId} not found`);
      const [listing] = (await listRollbackLogsWithEntries(deps.store.db, { jobId: log.jobId, limit: 1000 })).filter(
        (l) => l.log.id === logId,
      );
      res.json({
        ...rollbackLogView(listing),
        entries: log.entries.map((e) => ({
          seq: e.seq,
          object_type: e.objectType,
          fqn: e.fqn,
          existed: e.existed,
          version: e.version,
          action: e.action,
        })),
        result: listing.target?.result ?? null,
      });
    });
    router.post('/clone/:jobId/quiesce/release', validate(byJob), async (_req, res) => {
      const { jobId } = parsed(res, byJob).params;
      await temporal(deps).workflow.getHandle(jobId).signal(releaseQuiesceSignal);
      res.status(202).json({ job_id: jobId, status: 'release_requested' });
    });
    return router;
  },
  openapi(registry) {
    const error = (description: string) => ({
      description,
      content: { 'application/json': { schema: ErrorBodySchema } },
    });
    const json = (description: string) => ({
      description,
      content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } },
    });
    registry.registerPath({
      method: 'post',
      path: '/api/rollback',
      tags: ['rollback'],
      summary: 'Roll a clone job back (restore recorded table versions, drop created objects)',
      request: { body: { content: { 'application/json': { schema: rollbackRequestSchema } } } },
      responses: {
        200: json('Rollback results (wait: true)'),
        202: json('Rollback workflow(s) started'),
        400: error('Invalid request'),
        404: error('No such job or log'),
      },
    });
    registry.registerPath({
      method: 'get',
      path: '/api/rollback/logs',
      tags: ['rollback'],
      summary: 'Rollback logs with counts, newest first',
      request: { query: rollbackLogsQuerySchema },
      responses: { 200: json('Logs') },
    });
    registry.registerPath({
      method: 'get',
      path: '/api/rollback/{logId}',
      tags: ['rollback'],
      summary: 'One rollback log with its entries and last result',
      request: { params: logIdParamsSchema },
      responses: { 200: json('Log'), 404: error('Unknown log') },
    });
    registry.registerPath({
      method: 'post',
      path: '/api/clone/{jobId}/quiesce/release',
      tags: ['clone'],
      summary: 'Re-grant source write privileges now (quiesce_source)',
      request: { params: jobIdParamsSchema },
      responses: { 202: json('Release requested'), 404: error('Unknown job') },
    });
  },
};
