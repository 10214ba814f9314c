import { z } from 'zod';
import { PipelineDetailSchema, PipelineListQuerySchema, PipelineListSchema } from '../../schemas/dlt';
import { defineRoutes, route } from '../middleware/route';

/** DLT pipeline discovery through the workspace port (the local lakehouse has none). */
export const dltRoutes = defineRoutes({
  name: 'dlt',
  routes: [
    route({
      method: 'get',
      path: '/dlt/pipelines',
      summary: 'One page of DLT pipelines (Databricks Pipelines API; empty on the local lakehouse)',
      request: { query: PipelineListQuerySchema },
      response: { description: 'Pipelines and the token of the next page', schema: PipelineListSchema },
      handler: async ({ deps, req, input }) =>
        (await deps.workspaces.resolve(req)).listPipelines({
          filter: input.query.filter,
          pageToken: input.query.page_token,
          maxResults: input.query.max_results,
        }),
    }),
    route({
      method: 'get',
      path: '/dlt/pipelines/:id',
      summary: 'One pipeline: state, latest updates and the tables it publishes',
      request: { params: z.object({ id: z.string().min(1).max(128) }) },
      response: { description: 'The pipeline', schema: PipelineDetailSchema },
      errors: { 404: 'No such pipeline' },
      handler: async ({ deps, req, input }) => (await deps.workspaces.resolve(req)).getPipeline(input.params.id),
    }),
  ],
});
