import {
  CreationOrderResponseSchema,
  DependenciesRequestSchema,
  FunctionDependenciesResponseSchema,
  ImpactRequestSchema,
  ImpactResponseSchema,
  LineageRequestSchema,
  LineageResponseSchema,
  ViewDependenciesResponseSchema,
} from '../../schemas/analysis-lineage';
import { badRequest } from '../middleware/http-error';
import { route } from '../middleware/route';
import { creationOrder, functionDependencies, impact, lineage, viewDependencies } from './lineage-service';
import { workspaceFor } from './names';
import { CatalogReader } from './reader';

const ERRORS = { 404: 'The catalog does not exist', 422: 'A name the workspace cannot take' };

/** The reader of the request's workspace, after the catalog named by `field` was found (404 naming it). */
async function readerFor(
  ctx: { deps: Parameters<typeof workspaceFor>[0]; req: Parameters<typeof workspaceFor>[1] },
  names: Record<string, string | undefined>,
  catalog: string,
) {
  const r = CatalogReader.for(ctx.deps, await workspaceFor(ctx.deps, ctx.req, names));
  await r.hasCatalog(catalog, 'catalog');
  return r;
}

const dependencyRoute = <
  R extends
    | typeof ViewDependenciesResponseSchema
    | typeof FunctionDependenciesResponseSchema
    | typeof CreationOrderResponseSchema,
>(
  path: string,
  summary: string,
  schema: R,
  run: (r: CatalogReader, catalog: string, schema: string) => Promise<unknown>,
) =>
  route({
    method: 'post',
    path,
    summary,
    role: 'viewer',
    request: { body: DependenciesRequestSchema },
    response: { description: 'Dependencies', schema },
    errors: ERRORS,
    handler: async ({ deps, req, input: { body: b } }) => {
      const r = await readerFor({ deps, req }, { catalog: b.catalog, schema_name: b.schema_name }, b.catalog);
      return (await run(r, b.catalog, b.schema_name)) as never;
    },
  });

export const lineageRoutes = [
  route({
    method: 'post',
    path: '/lineage',
    summary: 'Lineage edges: view and function definitions, recorded clones, Databricks system lineage',
    role: 'viewer',
    request: { body: LineageRequestSchema },
    response: { description: 'The edges', schema: LineageResponseSchema },
    errors: ERRORS,
    handler: async ({ deps, req, input: { body: b } }) => {
      const parts = b.table?.split('.');
      if (parts && (parts.length < 2 || parts.length > 3 || parts.some((p) => p === '')))
        throw badRequest('table: use schema.table or catalog.schema.table', [
          { path: 'body.table', message: 'use schema.table or catalog.schema.table' },
        ]);
      const names = Object.fromEntries((parts ?? []).map((p, i) => [`table.${i}`, p]));
      const r = await readerFor({ deps, req }, { catalog: b.catalog, ...names }, b.catalog);
      return lineage(r, deps.store.db, b.catalog, b.table);
    },
  }),
  route({
    method: 'post',
    path: '/impact',
    summary: 'Downstream tables, views, functions and jobs of a table, schema or catalog, with a risk level',
    role: 'viewer',
    request: { body: ImpactRequestSchema },
    response: { description: 'The impact', schema: ImpactResponseSchema },
    errors: ERRORS,
    handler: async ({ deps, req, input: { body: b } }) => {
      const r = await readerFor({ deps, req }, { catalog: b.catalog, schema: b.schema, table: b.table }, b.catalog);
      return impact(r, deps.store.db, b);
    },
  }),
  dependencyRoute(
    '/dependencies/views',
    'What each view of a schema reads (parsed from its definition), and view cycles',
    ViewDependenciesResponseSchema,
    viewDependencies,
  ),
  dependencyRoute(
    '/dependencies/functions',
    'What each function of a schema reads or calls (parsed from its body)',
    FunctionDependenciesResponseSchema,
    functionDependencies,
  ),
  dependencyRoute(
    '/dependencies/order',
    "The schema's views in creation order (the clone engine's order); cycles reported with their members",
    CreationOrderResponseSchema,
    creationOrder,
  ),
];
