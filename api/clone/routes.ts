import { z } from 'zod';
import { cloneRequestFields, cloneRequestSchema } from '../../schemas/clone';
import { paginationQuery } from '../../schemas/common';
import { JobIdParamsSchema, JobListItemSchema, JobResultSchema, JobStatusSchema } from '../../schemas/jobs';
import { cancelRoute, logsRoute } from '../jobs/routes';
import { defineRoutes, route } from '../middleware/route';
import { CLONE_JOB_TYPES, getCloneJob, listCloneJobs, submitClone } from './service';

const byId = { params: JobIdParamsSchema };
const list = { query: paginationQuery().extend({ status: JobStatusSchema.optional() }) };

const AcceptedSchema = z
  .object({ job_id: z.string(), status: z.literal('queued'), message: z.string(), queue_position: z.number() })
  .meta({ id: 'JobAccepted' });
/** The request as the job stored it: the clone request's fields (secrets removed) and the job's settings. */
const StoredCloneRequestSchema = z
  .object(cloneRequestFields)
  .partial()
  .catchall(z.unknown())
  .meta({ id: 'StoredCloneRequest' });

/** A finished clone's summary fields are also at the top level (as clients of the clone API read them). */
const CloneJobRecordSchema = JobListItemSchema.extend(
  JobResultSchema.omit({ status: true, error: true }).partial().shape,
)
  .extend({
    id: z.string(),
    source: z.string().nullable(),
    destination: z.string().nullable(),
    queue_position: z.number().int().nullable(),
    result: JobResultSchema.nullable(),
    logs: z.array(z.string()),
    duration_seconds: z.number().nullable(),
    request: StoredCloneRequestSchema.nullable(),
  })
  .meta({ id: 'CloneJobRecord' });

const listRoute = (path: string) =>
  route({
    method: 'get',
    path,
    summary: 'Clone jobs, newest first, as recorded in the store',
    request: list,
    response: { description: 'Jobs', schema: z.array(JobListItemSchema) },
    handler: ({ deps, input }) => listCloneJobs(deps, input.query),
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
    cancelRoute('delete', '/clone/:jobId', CLONE_JOB_TYPES),
    cancelRoute('post', '/clone/:jobId/cancel', CLONE_JOB_TYPES),
    logsRoute('/clone/:jobId/logs', CLONE_JOB_TYPES),
  ],
});
