import { z } from 'zod';
import { cloneRequestSchema } from '../../schemas/clone';
import { paginationQuery } from '../../schemas/common';
import { CancelResponseSchema, JobIdParamsSchema, JobListItemSchema, JobStatusSchema } from '../../schemas/jobs';
import { LogsQuerySchema, logStreamResponse } from '../jobs/routes';
import { streamJobLog } from '../jobs/log-stream';
import { defineRoutes, route } from '../middleware/route';
import { cancelClone, getCloneJob, listCloneJobs, requireCloneJob, submitClone } from './service';

const byId = { params: JobIdParamsSchema };
const list = { query: paginationQuery().extend({ status: JobStatusSchema.optional() }) };

const AcceptedSchema = z
  .object({ job_id: z.string(), status: z.literal('queued'), message: z.string(), queue_position: z.number() })
  .meta({ id: 'JobAccepted' });
const CloneJobRecordSchema = JobListItemSchema.extend({
  id: z.string(),
  source: z.string().nullable(),
  destination: z.string().nullable(),
  queue_position: z.number().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
  logs: z.array(z.string()),
  duration_seconds: z.number().nullable(),
  request: z.record(z.string(), z.unknown()).nullable(),
}).meta({ id: 'CloneJobRecord' });

const listRoute = (path: string) =>
  route({
    method: 'get',
    path,
    summary: 'Clone jobs, newest first, as recorded in the store',
    request: list,
    response: { description: 'Jobs', schema: z.array(JobListItemSchema) },
    handler: ({ deps, input }) => listCloneJobs(deps, input.query),
  });
const cancelRoute = (method: 'delete' | 'post', path: string) =>
  route({
    method,
    path,
    summary: 'Cancel a queued job (cancelled at once) or a running one (cancelling until its end is recorded)',
    request: byId,
    response: { description: 'Cancel accepted', schema: CancelResponseSchema },
    errors: { 404: 'Unknown job', 409: 'The job already ended', 503: 'Temporal or a worker did not answer the cancel' },
    handler: ({ deps, input }) => cancelClone(deps, input.params.jobId),
  });

/** Clone jobs: submit, list, inspect, cancel, stream logs (the WebSocket lives in api/jobs/socket.ts). */
export const cloneRoutes = defineRoutes({
  name: 'clone',
  routes: [
    route({
      method: 'post',
      path: '/clone',
      summary: 'Queue a clone job (server-mode fields source, destination and validate are accepted too)',
      request: { body: cloneRequestSchema },
      response: { description: 'Job accepted', schema: AcceptedSchema },
      errors: {
        404: 'The source catalog does not exist (details name the field)',
        422: 'A name the destination workspace cannot hold, or an unsupported workspace pair',
        429: 'The queue is full (QUEUE_FULL)',
        503: 'No worker or no Temporal to run the job',
      },
      handler: ({ deps, input }) => submitClone(deps, input.body),
    }),
    listRoute('/clone'),
    listRoute('/clone/jobs'),
    route({
      method: 'get',
      path: '/clone/:jobId',
      summary: 'The job record, served from the store',
      request: byId,
      response: { description: 'Job record (with the summary fields of a finished job)', schema: CloneJobRecordSchema },
      errors: { 404: 'Unknown job' },
      handler: ({ deps, input }) => getCloneJob(deps, input.params.jobId),
    }),
    cancelRoute('delete', '/clone/:jobId'),
    cancelRoute('post', '/clone/:jobId/cancel'),
    route({
      method: 'get',
      path: '/clone/:jobId/logs',
      summary: 'Stream the job events',
      request: { params: JobIdParamsSchema, query: LogsQuerySchema },
      response: logStreamResponse,
      errors: { 404: 'Unknown job' },
      handler: async ({ deps, input, req, res }) => {
        await requireCloneJob(deps, input.params.jobId); // 404 before the stream starts
        await streamJobLog(deps, input.params.jobId, req, res, input.query.follow === 'true');
        return undefined;
      },
    }),
  ],
});
