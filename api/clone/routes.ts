import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { Router } from 'express';
import { z } from 'zod';
import { cloneRequestFields, cloneRequestSchema } from '../../schemas/clone';
import { ErrorBodySchema } from '../../schemas/common';
import type { RouteModule } from '../deps';
import { CancelResponseSchema, JobIdParamsSchema, JobStatusSchema } from '../../schemas/jobs';
import { streamJobLog } from '../jobs/log-stream';
import { cancelClone, getCloneJob, listCloneJobs, requireCloneJob, submitClone } from './service';
import { parsed, validate } from '../middleware/validate';

const jobParams = JobIdParamsSchema;
const listQuery = z.object({
  status: JobStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
const logsQuery = z.object({ follow: z.enum(['true', 'false']).default('true') });

const submit = { body: cloneRequestSchema };
const byId = { params: jobParams };
const list = { query: listQuery };
const logs = { params: jobParams, query: logsQuery };

/** Clone jobs: submit, list, inspect, cancel, stream logs (the WebSocket lives in api/jobs/socket.ts). */
export const cloneRoutes: RouteModule = {
  name: 'clone',
  router(deps) {
    const router = Router();
    router.post('/clone', validate(submit), async (_req, res) => {
      res.json(await submitClone(deps, parsed(res, submit).body));
    });
    for (const path of ['/clone', '/clone/jobs']) {
      router.get(path, validate(list), async (_req, res) => {
        res.json(await listCloneJobs(deps, parsed(res, list).query));
      });
    }
    router.get('/clone/:jobId', validate(byId), async (_req, res) => {
      res.json(await getCloneJob(deps, parsed(res, byId).params.jobId));
    });
    const cancel = async (_req: unknown, res: import('express').Response) => {
      res.json(await cancelClone(deps, parsed(res, byId).params.jobId));
    };
    router.delete('/clone/:jobId', validate(byId), cancel);
    router.post('/clone/:jobId/cancel', validate(byId), cancel);
    router.get('/clone/:jobId/logs', validate(logs), async (req, res) => {
      const p = parsed(res, logs);
      await requireCloneJob(deps, p.params.jobId); // 404 before the stream starts
      await streamJobLog(deps, p.params.jobId, req, res, p.query.follow === 'true');
    });
    return router;
  },
  openapi: registerCloneOpenApi,
};

function registerCloneOpenApi(registry: OpenAPIRegistry): void {
  const error = (description: string) => ({
    description,
    content: { 'application/json': { schema: ErrorBodySchema } },
  });
  const json = (description: string, schema: z.ZodType = z.record(z.string(), z.unknown())) => ({
    description,
    content: { 'application/json': { schema } },
  });
  const accepted = z.object({
    job_id: z.string(),
    status: z.literal('queued'),
    message: z.string(),
    queue_position: z.number(),
  });
  registry.registerPath({
    method: 'post',
    path: '/api/clone',
    tags: ['clone'],
    summary: 'Queue a clone job (server-mode fields source, destination and validate are accepted too)',
    request: { body: { content: { 'application/json': { schema: z.object(cloneRequestFields) } } } },
    responses: {
      200: json('Job accepted', accepted),
      400: error('A field is invalid; details name it'),
      429: error('The queue is full (QUEUE_FULL)'),
    },
  });
  for (const path of ['/api/clone', '/api/clone/jobs']) {
    registry.registerPath({
      method: 'get',
      path,
      tags: ['clone'],
      summary: 'Clone jobs, newest first',
      request: { query: listQuery },
      responses: { 200: json('Jobs', z.array(z.record(z.string(), z.unknown()))) },
    });
  }
  registry.registerPath({
    method: 'get',
    path: '/api/clone/{jobId}',
    tags: ['clone'],
    summary: 'The job record',
    request: { params: jobParams },
    responses: { 200: json('Job record'), 404: error('Unknown job') },
  });
  for (const [method, path] of [
    ['delete', '/api/clone/{jobId}'],
    ['post', '/api/clone/{jobId}/cancel'],
  ] as const) {
    registry.registerPath({
      method,
      path,
      tags: ['clone'],
      summary: 'Cancel a queued or running job',
      request: { params: jobParams },
      responses: {
        200: json('Cancel accepted: cancelling (running) or cancelled (was queued)', CancelResponseSchema),
        404: error('Unknown job'),
        409: error('The job already ended'),
      },
    });
  }
  registry.registerPath({
    method: 'get',
    path: '/api/clone/{jobId}/logs',
    tags: ['clone'],
    summary: 'Stream the job events as NDJSON (or SSE with Accept: text/event-stream) until the job ends',
    request: { params: jobParams, query: logsQuery },
    responses: { 200: { description: 'One JSON event per line' }, 404: error('Unknown job') },
  });
}
