import { TableDetailsSchema, TableParamsSchema, TableQuerySchema } from '../../schemas/tables';
import { defineRoutes, route } from '../middleware/route';
import { tableDetails } from './service';

/** GET /api/tables/{full_name} — what the catalog explorer shows of one table (Catalog Explorer's tabs). */
export const tableRoutes = defineRoutes({
  name: 'tables',
  routes: [
    route({
      method: 'get',
      path: '/tables/:full_name',
      summary: "A table's columns, details, history, and links to its lineage, quality checks and contracts",
      request: { params: TableParamsSchema, query: TableQuerySchema },
      response: { description: 'The table', schema: TableDetailsSchema },
      errors: { 404: 'The table (or its catalog or schema) does not exist' },
      handler: async ({ deps, req, input: { params, query } }) => {
        const [catalog, schema, name] = params.full_name.split('.');
        const ws = await deps.workspaces.resolve(req);
        return tableDetails(ws, deps.store.db, { catalog, schema, name }, query.history_limit);
      },
    }),
  ],
});
