import { ConvertBatchSchema, ConvertBodySchema } from '../../schemas/convert';
import { defineRoutes, route } from '../middleware/route';
import { convertTables } from './service';

/** Format conversion: synchronous, no job queue (SPEC "Convert"); the path keeps its historical name. */
export const convertRoutes = defineRoutes({
  name: 'convert',
  routes: [
    route({
      method: 'post',
      path: '/convert-to-delta',
      summary:
        'Convert tables between DELTA, ICEBERG and PARQUET (convert_to_delta, uniform, ctas_iceberg, ctas_parquet); 200 even when some fail',
      request: { body: ConvertBodySchema },
      response: { description: 'Per target: strategy, status, steps and error', schema: ConvertBatchSchema },
      errors: { 422: 'A target pair is not supported (every HUDI pair): the message lists them' },
      handler: async ({ deps, input: { body } }) => convertTables(deps, await deps.workspaces.default(), body),
    }),
  ],
});
