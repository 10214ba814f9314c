import { z } from 'zod';
import { applyEdit } from '../../activities/warehouses/logic/spec';
import {
  WarehouseActionSchema,
  WarehouseCreateSchema,
  WarehouseEditSchema,
  WarehouseEventSchema,
  WarehouseIdBodySchema,
  WarehouseIdParamsSchema,
  WarehouseSchema,
  type WarehouseState,
} from '../../schemas/warehouses';
import {
  getWarehouseByName,
  insertWarehouse,
  listWarehouseEvents,
  listWarehouses,
  recordTransition,
  specOf,
  updateWarehouseSpec,
} from '../../store/warehouses/repo';
import type { AppDeps } from '../deps';
import { ensureLedgerSchedule } from '../finops/schedule';
import { conflict, HttpError } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import {
  createInDatabricks,
  newWarehouseId,
  requestTransition,
  requireWarehouse,
  sendCommand,
  temporalClient,
  warehouseBody,
} from './service';

const invalid = (problems: { path: string; message: string }[]) =>
  new HttpError(422, 'VALIDATION_ERROR', `Invalid warehouse: ${problems.map((p) => p.path).join(', ')}`, problems);

const hostOf = (deps: AppDeps) =>
  deps.config.workspace.kind === 'databricks' && deps.config.workspace.host
    ? deps.config.workspace.host
    : `${deps.config.api_server.host}:${deps.config.api_server.port}`;

const ERRORS_422 = { 422: 'A field has a value Databricks refuses (details name it)' };

/**
 * SQL warehouses: `/infrastructure/warehouses` (with and without `/api`) and `/api/warehouse/start|stop`. Changes
 * of state go through the warehouse's workflow (start and stop answer 202 at once); reads come from the store.
 */
export const warehouseRoutes = defineRoutes({
  name: 'warehouses',
  mounts: ['/api', '/'],
  routes: [
    route({
      method: 'get',
      path: '/infrastructure/warehouses',
      summary: 'List SQL warehouses',
      response: { description: 'Warehouses', schema: z.object({ warehouses: z.array(WarehouseSchema) }) },
      handler: async ({ deps }) => ({
        warehouses: (await listWarehouses(deps.store.db)).map((w) => warehouseBody(w, hostOf(deps))),
      }),
    }),
    route({
      method: 'post',
      path: '/infrastructure/warehouses',
      summary: 'Create a SQL warehouse (it starts: STARTING, then RUNNING)',
      request: { body: WarehouseCreateSchema },
      response: { status: 201, description: 'The warehouse', schema: WarehouseSchema },
      errors: {
        ...ERRORS_422,
        409: 'A warehouse with this name exists',
        502: 'The Databricks workspace did not create it',
        503: 'Temporal is not configured',
      },
      handler: async ({ deps, input: { body } }) => {
        const { spec, problems } = applyEdit(null, body);
        if (problems.length) throw invalid(problems);
        temporalClient(deps);
        if (await getWarehouseByName(deps.store.db, spec.name))
          throw conflict(`A warehouse named "${spec.name}" exists`);
        const location = deps.config.workspace.kind;
        // In Databricks the workspace makes the warehouse (and its id); the workflow then waits for RUNNING.
        const id = location === 'databricks' ? await createInDatabricks(deps, spec) : newWarehouseId();
        await insertWarehouse(deps.store.db, { id, location, spec, state: 'STOPPED', creatorName: null });
        await recordTransition(deps.store.db, id, 'STARTING', 0, 'created');
        await sendCommand(deps, id, 'start');
        await ensureLedgerSchedule(deps);
        return warehouseBody(await requireWarehouse(deps, id), hostOf(deps));
      },
    }),
    route({
      method: 'get',
      path: '/infrastructure/warehouses/:id',
      summary: 'One SQL warehouse',
      request: { params: WarehouseIdParamsSchema },
      response: { description: 'The warehouse', schema: WarehouseSchema },
      errors: { 404: 'No such warehouse' },
      handler: async ({ deps, input: { params } }) =>
        warehouseBody(await requireWarehouse(deps, params.id), hostOf(deps)),
    }),
    route({
      method: 'patch',
      path: '/infrastructure/warehouses/:id',
      summary: 'Edit a SQL warehouse (size, clusters, auto-stop, type, tags …)',
      request: { params: WarehouseIdParamsSchema, body: WarehouseEditSchema },
      response: { description: 'The warehouse', schema: WarehouseSchema },
      errors: { ...ERRORS_422, 404: 'No such warehouse', 409: 'Another warehouse has this name' },
      handler: async ({ deps, input: { params, body } }) => {
        const row = await requireWarehouse(deps, params.id);
        const { spec, problems } = applyEdit(specOf(row), body);
        if (problems.length) throw invalid(problems);
        const other = body.name ? await getWarehouseByName(deps.store.db, body.name) : undefined;
        if (other && other.id !== row.id) throw conflict(`A warehouse named "${body.name}" exists`);
        await updateWarehouseSpec(deps.store.db, row.id, spec);
        if (deps.temporal) await sendCommand(deps, row.id, 'edit');
        return warehouseBody(await requireWarehouse(deps, row.id), hostOf(deps));
      },
    }),
    route({
      method: 'delete',
      path: '/infrastructure/warehouses/:id',
      summary: 'Delete a SQL warehouse (DELETING, then DELETED)',
      request: { params: WarehouseIdParamsSchema },
      response: { status: 202, description: 'Deletion requested', schema: WarehouseActionSchema },
      errors: { 404: 'No such warehouse', 503: 'Temporal is not configured' },
      handler: async ({ deps, input: { params } }) => {
        const row = await requireWarehouse(deps, params.id);
        await sendCommand(deps, row.id, 'delete');
        return { id: row.id, state: row.state as WarehouseState, accepted: true, message: 'delete requested' };
      },
    }),
    ...(['start', 'stop'] as const).map((cmd) =>
      route({
        method: 'post',
        path: `/infrastructure/warehouses/:id/${cmd}`,
        summary: `${cmd === 'start' ? 'Start' : 'Stop'} a SQL warehouse (answers at once; a repeat is a no-op)`,
        request: { params: WarehouseIdParamsSchema },
        response: { status: 202, description: 'Accepted (or already so)', schema: WarehouseActionSchema },
        errors: { 404: 'No such warehouse', 503: 'Temporal is not configured' },
        handler: async ({ deps, input: { params } }) => requestTransition(deps, params.id, cmd),
      }),
    ),
    ...(['start', 'stop'] as const).map((cmd) =>
      route({
        method: 'post',
        path: `/warehouse/${cmd}`,
        summary: `${cmd === 'start' ? 'Start' : 'Stop'} the SQL warehouse named in the body`,
        request: { body: WarehouseIdBodySchema },
        response: { status: 202, description: 'Accepted (or already so)', schema: WarehouseActionSchema },
        errors: { 404: 'No such warehouse', 503: 'Temporal is not configured' },
        handler: async ({ deps, input: { body } }) => requestTransition(deps, body.warehouse_id, cmd),
      }),
    ),
    route({
      method: 'get',
      path: '/infrastructure/warehouses/:id/events',
      summary: "A warehouse's state transitions, oldest first",
      request: { params: WarehouseIdParamsSchema },
      response: { description: 'Events', schema: z.object({ events: z.array(WarehouseEventSchema) }) },
      errors: { 404: 'No such warehouse' },
      handler: async ({ deps, input: { params } }) => {
        const row = await requireWarehouse(deps, params.id);
        return {
          events: (await listWarehouseEvents(deps.store.db, row.id)).map((e) => ({
            warehouse_id: e.warehouseId,
            event_type: e.eventType as WarehouseState,
            cluster_count: e.clusterCount,
            event_time: e.eventTime.toISOString(),
            message: e.message,
          })),
        };
      },
    }),
  ],
});
