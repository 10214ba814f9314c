import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { Router, type Response } from 'express';
import { z } from 'zod';
import { ErrorBodySchema } from '../../schemas/common';
import { CancelResponseSchema, JobIdParamsSchema, JobListItemSchema, JobListQuerySchema } from '../../schemas/jobs';
import type { RouteModule } from '../deps';
import { parsed, validate } from '../middleware/validate';
import { streamJobLog } from './log-stream';
import { cancelJob, getJobRecord, listJobRecords, requireJob } from './service';

const byId = { params: JobIdParamsSchema };
const list = { query: JobListQuerySchema };
const logsQuery = z.object({ follow: z.enum(['true', 'false']).default('true') });
const logs = { params: JobIdParamsSchema, query: logsQuery };

/** Jobs of every type: list, inspect, cancel, stream events (the WebSocket is /api/jobs/ws/{job_id}). */
export const jobRoutes: RouteModule = {
  name: 'jobs',
  router(deps) {
    const router = Router();
    router.get('/jobs', validate(list), async (_req, res) => {
      res.json(await listJobRecords(deps, parsed(res, list).query));
    });
    router.get('/jobs/:jobId', validate(byId), async (_req, res) => {
      res.json(await getJobRecord(deps, parsed(res, byId).params.jobId));
    });
    const cancel = async (_req: unknown, res: Response) => {
      res.json(await cancelJob(deps, parsed(res, byId).params.jobId));
    };
    router.delete('/jobs/:jobId', validate(byId), cancel);
    router.post('/jobs/:jobId/cancel', validate(byId), cancel);
    router.get('/jobs/:jobId/logs', validate(logs), async (req, res) => {
      const p = parsed(res, logs);
      await requireJob(deps, p.params.jobId); // 404 before the stream starts
      await streamJobLog(deps, p.params.jobId, req, res, p.query.follow === 'true');
    });
    return router;
  },
  openapi: registerJobOpenApi,
};

function registerJobOpenApi(registry: OpenAPIRegistry): void {
  const error = (description: string) => ({
    description,
    content: { 'application/json': { schema: ErrorBodySchema } },
  });
  const json = (description: string, schema: z.ZodType) => ({
    description,
    content: { 'application/json': { schema } },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/jobs',
    tags: ['jobs'],
    summary: 'Jobs of every type (or ?type=clone), newest first, as recorded in the store',
    request: { query: JobListQuerySchema },
    responses: { 200: json('Jobs', z.array(JobListItemSchema)), 400: error('A query parameter is invalid') },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/jobs/{jobId}',
    tags: ['jobs'],
    summary: 'One job: status, progress, queue position, result and run log',
    request: { params: JobIdParamsSchema },
    responses: {
      200: json('Job', JobListItemSchema.extend({ result: z.unknown(), logs: z.array(z.string()) })),
      404: error('Unknown job'),
    },
  });
  for (const [method, path] of [
    ['delete', '/api/jobs/{jobId}'],
    ['post', '/api/jobs/{jobId}/cancel'],
  ] as const) {
    registry.registerPath({
      method,
      path,
      tags: ['jobs'],
      summary: 'Cancel a queued or running job (status cancelling until its end is recorded)',
      request: { params: JobIdParamsSchema },
      responses: {
        200: json('Cancel accepted', CancelResponseSchema),
        404: error('Unknown job'),
        409: error('The job already ended'),
      },
    });
  }
  registry.registerPath({
    method: 'get',
    path: '/api/jobs/{jobId}/logs',
    tags: ['jobs'],
    summary: 'Stream the job events (JobEvent) as NDJSON, or SSE with Accept: text/event-stream, until the job ends',
    request: { params: JobIdParamsSchema, query: logsQuery },
    responses: { 200: { description: 'One JobEvent per line' }, 404: error('Unknown job') },
  });
}
