import { kindOf } from '../../activities/warehouses/logic/spec';
import { DatabricksWorkspace } from '../../platform/databricks/workspace';
import type { Workspace } from '../../platform/port';
import {
  AuthVolumesQuerySchema,
  AuthVolumesSchema,
  AuthWarehousesSchema,
  NlSqlSpacesSchema,
  ServingEndpointsSchema,
  TestWarehouseBodySchema,
  TestWarehouseSchema,
} from '../../schemas/auth';
import { getWarehouse, listWarehouses } from '../../store/warehouses/repo';
import type { AppDeps } from '../deps';
import { notFound } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import { servingItems, statementOutcome, warehouseItem } from './workspace-offer';

const DEFAULT_WAREHOUSE = 'default';
const LOCAL_NO_SERVING = 'the local lakehouse has no model serving endpoints';
const LOCAL_NO_GENIE = 'the local lakehouse has no Genie (natural-language SQL) spaces';
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Local warehouses: the `default` engine and the named pools Lakeward keeps. */
async function localWarehouses(deps: AppDeps) {
  const rows = await listWarehouses(deps.store.db);
  return [
    { id: DEFAULT_WAREHOUSE, name: DEFAULT_WAREHOUSE, size: null, state: 'RUNNING', type: null },
    ...rows.map((w) => ({ id: w.id, name: w.name, size: w.clusterSize, state: w.state, type: kindOf(w) })),
  ];
}

/**
 * `SELECT 1` on a local warehouse: unknown → 404, not running → an error answer saying so; else the request's
 * engine runs it (the named pools live in the workers; the API process has none of its own).
 */
async function testLocal(deps: AppDeps, ws: Workspace, id: string) {
  if (id !== DEFAULT_WAREHOUSE) {
    const w = await getWarehouse(deps.store.db, id);
    if (!w || w.state === 'DELETED') throw notFound(`No SQL warehouse with id "${id}"`);
    if (w.state !== 'RUNNING')
      return {
        status: 'error' as const,
        message: `warehouse ${id} is ${w.state}; start it first (POST /infrastructure/warehouses/${id}/start)`,
        result: null,
      };
  }
  const res = await ws.query('SELECT 1 AS result');
  return {
    status: 'success' as const,
    message: `warehouse ${id} answered SELECT 1`,
    result: Number(res.rows[0]?.result),
  };
}

async function volumesOf(ws: Workspace, catalog: string | undefined) {
  const catalogs = catalog ? [catalog] : (await ws.listCatalogs()).map((c) => c.name);
  const out = [];
  for (const c of catalogs)
    for (const s of await ws.listSchemas(c))
      for (const v of await ws.listVolumes(c, s.name))
        out.push({
          catalog: v.catalog,
          schema: v.schema,
          name: v.name,
          full_name: `${v.catalog}.${v.schema}.${v.name}`,
          volume_type: v.volumeType,
          storage_location: v.storageLocation,
        });
  return out;
}

/**
 * What the request's workspace (headers, session, else the configured one) offers: `/api/auth/warehouses`,
 * `/volumes`, `/test-warehouse`, `/serving-endpoints`, `/nl-sql-spaces`. Databricks answers through its REST API;
 * the local lakehouse from its store and engine (serving and Genie: empty with the reason).
 */
export const authWorkspaceRoutes = defineRoutes({
  name: 'auth-workspace',
  tags: ['auth'],
  routes: [
    route({
      method: 'get',
      path: '/auth/warehouses',
      summary: 'SQL warehouses of the workspace: id, name, size, state, type',
      response: { description: 'Warehouses', schema: AuthWarehousesSchema },
      handler: async ({ deps, req }) => {
        const ws = await deps.workspaces.resolve(req);
        if (ws instanceof DatabricksWorkspace)
          return { warehouses: (await ws.rest.workspace.listWarehouses()).map(warehouseItem) };
        return { warehouses: await localWarehouses(deps) };
      },
    }),
    route({
      method: 'get',
      path: '/auth/volumes',
      summary: 'Unity Catalog volumes of the workspace (every catalog, or `catalog` only)',
      request: { query: AuthVolumesQuerySchema },
      response: { description: 'Volumes', schema: AuthVolumesSchema },
      errors: { 404: 'No such catalog' },
      handler: async ({ deps, req, input: { query } }) => ({
        volumes: await volumesOf(await deps.workspaces.resolve(req), query.catalog),
      }),
    }),
    route({
      method: 'post',
      path: '/auth/test-warehouse',
      summary: 'Run SELECT 1 on a warehouse: {status success|error, message, result}',
      role: 'viewer',
      request: { body: TestWarehouseBodySchema },
      response: { description: 'The outcome', schema: TestWarehouseSchema },
      errors: { 404: 'No such local warehouse' },
      handler: async ({ deps, req, input: { body } }) => {
        const ws = await deps.workspaces.resolve(req);
        if (!(ws instanceof DatabricksWorkspace)) return testLocal(deps, ws, body.warehouse_id);
        try {
          return statementOutcome(
            body.warehouse_id,
            await ws.rest.workspace.executeStatement(body.warehouse_id, 'SELECT 1'),
          );
        } catch (err) {
          return { status: 'error' as const, message: `warehouse ${body.warehouse_id}: ${message(err)}`, result: null };
        }
      },
    }),
    route({
      method: 'get',
      path: '/auth/serving-endpoints',
      summary: 'READY model serving endpoints: name, state, provider, is_claude',
      response: { description: 'Endpoints', schema: ServingEndpointsSchema },
      handler: async ({ deps, req }) => {
        const ws = await deps.workspaces.resolve(req);
        if (!(ws instanceof DatabricksWorkspace)) return { success: true, endpoints: [], reason: LOCAL_NO_SERVING };
        try {
          return { success: true, endpoints: servingItems(await ws.rest.workspace.listServingEndpoints()) };
        } catch (err) {
          return { success: false, endpoints: [], reason: message(err) };
        }
      },
    }),
    route({
      method: 'get',
      path: '/auth/nl-sql-spaces',
      summary: 'Genie spaces (natural-language SQL): space_id, title, description',
      response: { description: 'Spaces', schema: NlSqlSpacesSchema },
      handler: async ({ deps, req }) => {
        const ws = await deps.workspaces.resolve(req);
        if (!(ws instanceof DatabricksWorkspace)) return { success: true, spaces: [], reason: LOCAL_NO_GENIE };
        try {
          const spaces = await ws.rest.workspace.listGenieSpaces();
          return {
            success: true,
            spaces: spaces.map((s) => ({
              space_id: s.space_id,
              title: s.title ?? '',
              description: s.description ?? null,
            })),
          };
        } catch (err) {
          return { success: false, spaces: [], reason: message(err) };
        }
      },
    }),
  ],
});
