import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { z } from 'zod';
import { rollbackLogView } from '../../activities/clone/logic/rollback-view';
import {
  jobIdParamsSchema,
  logIdParamsSchema,
  rollbackLogsQuerySchema,
  rollbackRequestSchema,
} from '../../schemas/clone-safety';
import { getRollbackLog, rollbackLogsForJob } from '../../store/clone/rollback-logs';
import { listRollbackLogsWithEntries } from '../../store/clone/safety-rollback';
import { releaseQuiesceSignal } from '../../workflows/clone/definitions';
import { rollbackWorkflowId, type RollbackResult } from '../../workflows/clone/rollback-definitions';
import type { AppDeps } from '../deps';
import { HttpError, notFound } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';

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

const RollbackStepSchema = z.object({
  kind: z.enum(['restore', 'drop', 'unrecoverable']),
  objectType: z.string(),
  fqn: z.string(),
  outcome: z.enum(['restored', 'dropped', 'failed']),
  version: z.number().int().optional(),
  error: z.string().optional(),
});
const RollbackResultSchema = z
  .object({
    rollback_id: z.string(),
    job_id: z.string(),
    status: z.enum(['rolled_back', 'rollback_failed']),
    reason: z.string(),
    restored: z.number().int(),
    dropped: z.number().int(),
    failed: z.number().int(),
    steps: z.array(RollbackStepSchema),
  })
  .meta({ id: 'RollbackResult' });
/** One rollback of the request: started (202) or, with wait: true, its result (200). */
const RollbackRunSchema = z.object({
  log_id: z.string(),
  workflow_id: z.string(),
  status: z.enum(['started', 'running']).optional().meta({ description: 'without wait: started, or already running' }),
  result: RollbackResultSchema.optional().meta({ description: 'with wait: true' }),
});
const rollbacks = z.object({ job_id: z.string().nullable(), rollbacks: z.array(RollbackRunSchema) });
const RollbackLogSchema = z
  .object({
    log_id: z.string(),
    job_id: z.string(),
    source_catalog: z.string().nullable(),
    destination_catalog: z.string().nullable(),
    target: z.string().nullable(),
    status: z.string(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    counts: z.object({
      tables_restored: z.number().int(),
      tables_created: z.number().int(),
      catalog_created: z.boolean(),
      schemas: z.number().int(),
      views: z.number().int(),
      functions: z.number().int(),
      volumes: z.number().int(),
      column_masks: z.number().int(),
      total_objects: z.number().int(),
    }),
    last_rollback: z
      .object({ restored: z.number().int(), dropped: z.number().int(), failed: z.number().int() })
      .nullable(),
  })
  .meta({ id: 'RollbackLog' });
const RollbackLogDetailSchema = RollbackLogSchema.extend({
  entries: z.array(
    z.object({
      seq: z.number().int(),
      object_type: z.string(),
      fqn: z.string(),
      existed: z.boolean(),
      version: z.number().int().nullable(),
      action: z.string().nullable(),
    }),
  ),
  result: RollbackResultSchema.nullable(),
}).meta({ id: 'RollbackLogDetail' });

/** Rollback of clone jobs: start (by job or log), list logs with counts, inspect one; early quiesce release. */
export const rollbackRoutes = defineRoutes({
  name: 'rollback',
  routes: [
    route({
      method: 'post',
      path: '/rollback',
      summary: 'Roll a clone job back (restore recorded table versions, drop created objects)',
      role: 'admin',
      request: { body: rollbackRequestSchema },
      response: { description: 'Rollback results (wait: true)', schema: rollbacks },
      otherResponses: { 202: { description: 'Rollback workflow(s) started', schema: rollbacks } },
      errors: { 404: 'No such job or log' },
      handler: async ({ deps, input: { body }, res }) => {
        const ids = body.log_id
          ? [body.log_id]
          : (await rollbackLogsForJob(deps.store.db, body.job_id!)).map((l) => l.id);
        if (body.log_id && !(await getRollbackLog(deps.store.db, body.log_id)))
          throw notFound(`rollback log ${body.log_id} not found`);
        if (ids.length === 0) throw notFound(`no rollback log for job ${body.job_id} (was enable_rollback off?)`);
        const started = [];
        for (const id of ids) started.push(await startRollback(deps, id));
        if (!body.wait) {
          res.status(202);
          return { job_id: body.job_id ?? null, rollbacks: started.map(({ handle: _h, ...r }) => r) };
        }
        const results = [];
        for (const s of started)
          results.push({
            log_id: s.log_id,
            workflow_id: s.workflow_id,
            result: (await s.handle.result()) as RollbackResult,
          });
        return { job_id: body.job_id ?? null, rollbacks: results };
      },
    }),
    route({
      method: 'get',
      path: '/rollback/logs',
      summary: 'Rollback logs with counts, newest first',
      request: { query: rollbackLogsQuerySchema },
      response: { description: 'Logs', schema: z.object({ logs: z.array(RollbackLogSchema) }) },
      handler: async ({ deps, input: { query: q } }) => {
        const rows = await listRollbackLogsWithEntries(deps.store.db, {
          jobId: q.job_id,
          limit: q.limit,
          offset: q.offset,
        });
        return { logs: rows.map(rollbackLogView) };
      },
    }),
    route({
      method: 'get',
      path: '/rollback/:logId',
      summary: 'One rollback log with its entries and last result',
      request: { params: logIdParamsSchema },
      response: { description: 'Log', schema: RollbackLogDetailSchema },
      errors: { 404: 'Unknown log' },
      handler: async ({ deps, input }) => {
        const { logId } = input.params;
        const log = await getRollbackLog(deps.store.db, logId);
        if (!log) throw notFound(`rollback log ${logId} not found`);
        const [listing] = (await listRollbackLogsWithEntries(deps.store.db, { jobId: log.jobId, limit: 1000 })).filter(
          (l) => l.log.id === logId,
        );
        return {
          ...rollbackLogView(listing),
          entries: log.entries.map((e) => ({
            seq: e.seq,
            object_type: e.objectType,
            fqn: e.fqn,
            existed: e.existed,
            version: e.version,
            action: e.action,
          })),
          result: (listing.target?.result ?? null) as RollbackResult | null,
        };
      },
    }),
    route({
      method: 'post',
      path: '/clone/:jobId/quiesce/release',
      tags: ['clone'],
      summary: 'Re-grant source write privileges now (quiesce_source)',
      request: { params: jobIdParamsSchema },
      response: {
        status: 202,
        description: 'Release requested',
        schema: z.object({ job_id: z.string(), status: z.literal('release_requested') }),
      },
      errors: { 404: 'Unknown job' },
      handler: async ({ deps, input }) => {
        const { jobId } = input.params;
        await temporal(deps).workflow.getHandle(jobId).signal(releaseQuiesceSignal);
        return { job_id: jobId, status: 'release_requested' as const };
      },
    }),
  ],
});
