import { z } from 'zod';
import { MultiCloneItemSchema, MultiCloneRequestSchema } from '../../schemas/fanout';
import { defineRoutes, route } from '../middleware/route';
import { submitMultiClone } from './service';

/** POST /api/multi-clone (fan-out over destination catalogs); target_workspaces fan-outs come in by POST /api/clone. */
export const fanoutRoutes = defineRoutes({
  name: 'fanout',
  tags: ['clone'],
  routes: [
    route({
      method: 'post',
      path: '/multi-clone',
      summary:
        'Clone one source catalog to several destination catalogs: one fan-out job, one clone job per destination (at most clone.fanout_max_parallel at once)',
      request: { body: MultiCloneRequestSchema },
      response: {
        status: 202,
        description: 'One queued clone job per destination',
        schema: z.array(MultiCloneItemSchema),
      },
      errors: {
        404: 'The source catalog does not exist',
        429: 'The queue is full (QUEUE_FULL)',
        503: 'No worker or no Temporal to run the job',
      },
      handler: ({ deps, input }) => submitMultiClone(deps, input.body),
    }),
  ],
});
