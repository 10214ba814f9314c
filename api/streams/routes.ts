import { z } from 'zod';
import {
  StreamIdParamsSchema,
  StreamSchema,
  StreamStartedSchema,
  StreamStartSchema,
  StreamsQuerySchema,
} from '../../schemas/streams';
import { assertAllowed } from '../governance/access';
import { callerOf } from '../middleware/auth';
import { defineRoutes, route } from '../middleware/route';
import { getStreamView, listStreamViews, restartStream, startStream, stopStream } from './service';

const C = '/continuous-sync';
const byId = { params: StreamIdParamsSchema };

/** Continuous sync streams: start, list (refresh=true re-reads Temporal), get, restart, stop. */
export const streamRoutes = defineRoutes({
  name: 'continuous-sync',
  routes: [
    route({
      method: 'post',
      path: `${C}/start`,
      summary:
        'Start a stream: every trigger_ms the change data feed of each source table since its applied version is MERGEd into the destination',
      request: { body: StreamStartSchema },
      response: { description: 'The stream (status starting until its first cycle)', schema: StreamStartedSchema },
      errors: {
        403: 'An access policy refuses syncing the source into the destination (names the rule)',
        404: 'A source table does not exist (details name it)',
        409: 'The same stream is already running',
        503: 'Temporal is not configured',
      },
      handler: async ({ deps, input, req }) => {
        const { source_catalog: source, destination_catalog: destination } = input.body;
        await assertAllowed(
          deps,
          callerOf(req),
          { operation: 'sync', source, destination },
          'body.destination_catalog',
        );
        return startStream(deps, input.body);
      },
    }),
    route({
      method: 'get',
      path: `${C}/streams`,
      summary: 'Streams with status, applied and source versions, lag and last cycle time',
      request: { query: StreamsQuerySchema },
      response: { description: 'Streams', schema: z.array(StreamSchema) },
      handler: ({ deps, input }) => listStreamViews(deps, input.query.refresh === 'true'),
    }),
    route({
      method: 'get',
      path: `${C}/streams/:stream_id`,
      summary: 'One stream, re-read from Temporal',
      request: byId,
      response: { description: 'Stream', schema: StreamSchema },
      errors: { 404: 'Unknown stream' },
      handler: ({ deps, input }) => getStreamView(deps, input.params.stream_id),
    }),
    route({
      method: 'post',
      path: `${C}/streams/:stream_id/restart`,
      summary: 'Cancel the running run and start a new one (new run id, same stream id) from the applied versions',
      request: byId,
      response: {
        description: 'Restarted',
        schema: z.object({
          stream_id: z.string(),
          run_id: z.string(),
          previous_run_id: z.string().nullable(),
          status: z.enum(['starting', 'running']),
        }),
      },
      errors: { 404: 'Unknown stream', 503: 'Temporal is not configured' },
      handler: ({ deps, input }) => restartStream(deps, input.params.stream_id),
    }),
    route({
      method: 'post',
      path: `${C}/streams/:stream_id/stop`,
      summary: 'Stop the stream (its running cycle finishes first)',
      request: byId,
      response: {
        description: 'Stopped',
        schema: z.object({ stream_id: z.string(), status: z.literal('stopped') }),
      },
      errors: { 404: 'Unknown stream', 503: 'Temporal is not configured' },
      handler: ({ deps, input }) => stopStream(deps, input.params.stream_id),
    }),
  ],
});
