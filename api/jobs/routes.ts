import { z } from 'zod';
import {
  CancelResponseSchema,
  JobEventSchema,
  JobIdParamsSchema,
  JobListItemSchema,
  JobListQuerySchema,
  JobRecordSchema,
} from '../../schemas/jobs';
import { defineRoutes, route } from '../middleware/route';
import { streamJobLog } from './log-stream';
import { cancelJob, getJobRecord, listJobRecords, requireJob } from './service';

export const LogsQuerySchema = z.object({ follow: z.enum(['true', 'false']).default('true') });
export const logStreamResponse = {
  description:
    'One JobEvent per line (application/x-ndjson), or Server-Sent Events with Accept: text/event-stream, until the job ends',
  schema: JobEventSchema,
  mediaTypes: ['application/x-ndjson', 'text/event-stream'],
};

const byId = { params: JobIdParamsSchema };

/** Cancel routes of jobs of any type, or only of `type` (the clone API's own paths). */
export const cancelRoute = (method: 'delete' | 'post', path: string, type?: string | readonly string[]) =>
  route({
    method,
    path,
    summary: 'Cancel a queued job (cancelled at once) or a running one (cancelling until its end is recorded)',
    request: byId,
    // DELETE here cancels a job (it destroys nothing): starting one needs editor, so does stopping it.
    role: 'editor',
    response: { description: 'Cancel accepted', schema: CancelResponseSchema },
    errors: { 404: 'Unknown job', 409: 'The job already ended', 503: 'Temporal or a worker did not answer the cancel' },
    handler: ({ deps, input }) => cancelJob(deps, input.params.jobId, type),
  });

/** The NDJSON/SSE event stream of a job of any type, or only of `type`. */
export const logsRoute = (path: string, type?: string | readonly string[]) =>
  route({
    method: 'get',
    path,
    summary: 'Stream the job events',
    request: { params: JobIdParamsSchema, query: LogsQuerySchema },
    response: logStreamResponse,
    errors: { 404: 'Unknown job' },
    handler: async ({ deps, input, req, res }) => {
      await requireJob(deps, input.params.jobId, type); // 404 before the stream starts
      await streamJobLog(deps, input.params.jobId, req, res, input.query.follow === 'true');
      return undefined;
    },
  });

/** Jobs of every type: list, inspect, cancel, stream events (the WebSocket is /api/jobs/ws/{job_id}). */
export const jobRoutes = defineRoutes({
  name: 'jobs',
  routes: [
    route({
      method: 'get',
      path: '/jobs',
      summary: 'Jobs of every type (or ?type=clone), newest first, as recorded in the store',
      request: { query: JobListQuerySchema },
      response: { description: 'Jobs', schema: z.array(JobListItemSchema) },
      handler: ({ deps, input }) => listJobRecords(deps, input.query),
    }),
    route({
      method: 'get',
      path: '/jobs/:jobId',
      summary: 'One job: status, progress, queue position, result and run log',
      request: byId,
      response: { description: 'Job', schema: JobRecordSchema },
      errors: { 404: 'Unknown job' },
      handler: ({ deps, input }) => getJobRecord(deps, input.params.jobId),
    }),
    cancelRoute('delete', '/jobs/:jobId'),
    cancelRoute('post', '/jobs/:jobId/cancel'),
    logsRoute('/jobs/:jobId/logs'),
  ],
});
