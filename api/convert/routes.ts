import { ConvertBatchSchema, ConvertBodySchema } from '../../schemas/convert';
import { assertAllowed } from '../governance/access';
import { callerOf } from '../middleware/auth';
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
      errors: {
        403: 'An access policy refuses writing a target (names the rule)',
        422: 'A target pair is not supported (every HUDI pair): the message lists them',
      },
      handler: async ({ deps, input: { body }, req }) => {
        // Conversion rewrites each table in place: a write to its catalog and schema, checked before any runs.
        for (const [i, t] of body.targets.entries()) {
          const [catalog, schema] = t.fqn.split('.');
          const request = { operation: 'write' as const, destination: catalog, schemas: [schema!] };
          await assertAllowed(deps, callerOf(req), request, `body.targets.${i}.fqn`);
        }
        return convertTables(deps, await deps.workspaces.default(), body);
      },
    }),
  ],
});
