import { z } from 'zod';
import {
  EntityTypeParamsSchema,
  ModelPutBodySchema,
  ModelViewSchema,
  SourceListQuerySchema,
  SourcePatchSchema,
  SourceSchema,
  SourceViewSchema,
  SyntheticBodySchema,
  SyntheticResultSchema,
  SystemParamsSchema,
} from '../../schemas/mdm';
import { IngestBodySchema, JobAcceptedSchema } from '../../schemas/mdm-runs';
import {
  deleteSource,
  getModel,
  getSource,
  insertSource,
  listModels,
  listSources,
  putModel,
  recordMdmAudit,
  updateSource,
  type MdmModelRow,
} from '../../store/mdm/repo';
import type { AppDeps } from '../deps';
import { assertAllowed } from '../governance/access';
import { callerOf } from '../middleware/auth';
import { HttpError, notFound } from '../middleware/http-error';
import { defineRoutes, route, type RouteDef } from '../middleware/route';
import { entityRoutes } from './match-entities';
import { caseRoutes } from './cases';
import { referenceRoutes } from './reference';
import { reportRoutes } from './reports';
import { templateRoutes } from './templates';
import { matchRoutes } from './match-routes';
import { ruleRoutes } from './rules';
import {
  actorOf,
  assertMdmWrite,
  checkSource,
  mdmWorkspace,
  modelOf,
  parseModelBody,
  sourceOf,
  sourceView,
} from './service';
import { modelScheduleSpec, syncModelSchedule } from './schedule';
import { submitIngest } from './submit';
import { writeSynthetic } from './synthetic-service';

const modelView = (row: MdmModelRow) => ({
  entity_type: row.entityType,
  model: modelOf(row),
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const audit = (
  deps: AppDeps,
  action: string,
  objectType: string,
  objectId: string,
  details?: Record<string, unknown>,
) => recordMdmAudit(deps.store.db, { actor: actorOf(deps), action, objectType, objectId, details });

const modelRoutes = [
  route({
    method: 'get',
    path: '/mdm/models',
    summary: 'Every MDM model',
    response: { description: 'Models by entity type', schema: z.array(ModelViewSchema) },
    handler: async ({ deps }) => (await listModels(deps.store.db)).map(modelView),
  }),
  route({
    method: 'get',
    path: '/mdm/models/:entity_type',
    summary: "An entity type's model",
    request: { params: EntityTypeParamsSchema },
    response: { description: 'The model', schema: ModelViewSchema },
    errors: { 404: 'No model for this entity type' },
    handler: async ({ deps, input: { params } }) => {
      const row = await getModel(deps.store.db, params.entity_type);
      if (!row) throw notFound(`No MDM model for entity type ${params.entity_type}`);
      return modelView(row);
    },
  }),
  route({
    method: 'put',
    path: '/mdm/models/:entity_type',
    summary: "Create or replace an entity type's model (JSON, or {yaml})",
    request: { params: EntityTypeParamsSchema, body: ModelPutBodySchema },
    response: { description: 'The stored model', schema: ModelViewSchema },
    otherResponses: { 201: { description: 'Created', schema: ModelViewSchema } },
    errors: { 422: 'The model is invalid (details name each path)' },
    handler: async ({ deps, input: { params, body }, res }) => {
      const model = parseModelBody(body, params.entity_type);
      if (model.schedule) modelScheduleSpec(model.schedule);
      const { row, existed } = await putModel(deps.store.db, params.entity_type, model as Record<string, unknown>);
      await syncModelSchedule(deps, params.entity_type, model.schedule);
      await audit(deps, existed ? 'model_updated' : 'model_created', 'model', params.entity_type);
      if (!existed) res.status(201);
      return modelView(row);
    },
  }),
];

const sourceRoutes = [
  route({
    method: 'get',
    path: '/mdm/sources',
    summary: 'Registered source systems (optionally of one entity type)',
    request: { query: SourceListQuerySchema },
    response: { description: 'Sources', schema: z.array(SourceViewSchema) },
    handler: async ({ deps, input: { query } }) =>
      (await listSources(deps.store.db, query.entity_type)).map(sourceView),
  }),
  route({
    method: 'post',
    path: '/mdm/sources',
    summary: 'Register a source system: its table, key column, attribute → column map, trust',
    request: { body: SourceSchema },
    response: { status: 201, description: 'The registered source', schema: SourceViewSchema },
    errors: {
      409: 'The system is registered already',
      422: 'Unknown entity type or attribute, missing table or column',
    },
    handler: async ({ deps, input: { body } }) => {
      if (await getSource(deps.store.db, body.system))
        throw new HttpError(409, 'CONFLICT', `Source ${body.system} is registered already: PATCH it instead`, [
          { path: 'body.system', message: 'already registered' },
        ]);
      await checkSource(deps, body);
      const row = await insertSource(deps.store.db, {
        system: body.system,
        entityType: body.entity_type,
        tableFqn: body.table_fqn,
        keyColumn: body.key_column,
        columns: body.columns,
        trust: body.trust,
        updatedAtColumn: body.updated_at_column,
      });
      await audit(deps, 'source_created', 'source', body.system, { table_fqn: body.table_fqn });
      return sourceView(row);
    },
  }),
  route({
    method: 'get',
    path: '/mdm/sources/:system',
    summary: 'One source system',
    request: { params: SystemParamsSchema },
    response: { description: 'The source', schema: SourceViewSchema },
    errors: { 404: 'No such source' },
    handler: async ({ deps, input: { params } }) => {
      const row = await getSource(deps.store.db, params.system);
      if (!row) throw notFound(`No MDM source ${params.system}`);
      return sourceView(row);
    },
  }),
  route({
    method: 'patch',
    path: '/mdm/sources/:system',
    summary: 'Change a source system (the result is checked against its model and table again)',
    request: { params: SystemParamsSchema, body: SourcePatchSchema },
    response: { description: 'The source', schema: SourceViewSchema },
    errors: { 404: 'No such source', 422: 'Unknown entity type or attribute, missing table or column' },
    handler: async ({ deps, input: { params, body } }) => {
      const row = await getSource(deps.store.db, params.system);
      if (!row) throw notFound(`No MDM source ${params.system}`);
      const next = SourceSchema.parse({ ...sourceOf(row), ...body });
      await checkSource(deps, next);
      const updated = await updateSource(deps.store.db, params.system, {
        entityType: next.entity_type,
        tableFqn: next.table_fqn,
        keyColumn: next.key_column,
        columns: next.columns,
        trust: next.trust,
        updatedAtColumn: next.updated_at_column,
      });
      await audit(deps, 'source_updated', 'source', params.system, { changed: Object.keys(body) });
      return sourceView(updated);
    },
  }),
  route({
    method: 'delete',
    path: '/mdm/sources/:system',
    summary: "Unregister a source system (its ingested records stay until the entity type's next full ingest)",
    request: { params: SystemParamsSchema },
    response: { description: 'Deleted', schema: z.object({ system: z.string(), deleted: z.literal(true) }) },
    errors: { 404: 'No such source' },
    handler: async ({ deps, input: { params } }) => {
      if (!(await deleteSource(deps.store.db, params.system))) throw notFound(`No MDM source ${params.system}`);
      await audit(deps, 'source_deleted', 'source', params.system);
      return { system: params.system, deleted: true as const };
    },
  }),
];

const jobRoutes = [
  route({
    method: 'post',
    path: '/mdm/synthetic',
    summary:
      'Write three synthetic source tables and a truth table (the answer holds a model and ready-to-post sources)',
    request: { body: SyntheticBodySchema },
    response: { status: 201, description: 'What was written', schema: SyntheticResultSchema },
    errors: { 403: 'An access policy refuses writing the catalog (names the rule)' },
    handler: async ({ deps, input: { body }, req }) => {
      const request = { operation: 'write' as const, destination: body.catalog, schemas: [body.schema] };
      await assertAllowed(deps, callerOf(req), request, 'body.catalog');
      const result = await writeSynthetic(await mdmWorkspace(deps), body);
      await audit(deps, 'synthetic_written', 'catalog', `${body.catalog}.${body.schema}`, {
        records: result.records,
        seed: body.seed,
      });
      return result;
    },
  }),
  route({
    method: 'post',
    path: '/mdm/ingest',
    summary: "Read an entity type's sources into its source_records table as an mdm_ingest job",
    request: { body: IngestBodySchema },
    response: {
      status: 202,
      description: 'The queued job (GET /api/jobs/{job_id} gives its summary per source)',
      schema: JobAcceptedSchema,
    },
    errors: {
      403: 'An access policy refuses writing the MDM catalog (names the rule)',
      422: 'Unknown entity type, no sources, or an unknown system',
      429: 'Too many ingests waiting',
    },
    handler: async ({ deps, input: { body }, req }) => {
      await assertMdmWrite(deps, callerOf(req));
      return submitIngest(deps, body);
    },
  }),
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- route defs differ in their schema types
type AnyRoute = RouteDef<any, any, any>;

/** Every MDM path answers under /api/mdm/… and /mdm/… (the specification does not say which), both documented. */
const bothPrefixes = (routes: AnyRoute[]): AnyRoute[] => [
  ...routes.map((r) => ({ ...r, path: `/api${r.path}` })),
  ...routes.map((r) => ({ ...r, path: r.path })),
];

export const mdmRoutes = defineRoutes({
  name: 'mdm',
  mounts: ['/'],
  routes: bothPrefixes([
    ...modelRoutes,
    ...sourceRoutes,
    ...jobRoutes,
    ...matchRoutes,
    ...entityRoutes,
    ...ruleRoutes,
    ...caseRoutes,
    ...referenceRoutes,
    ...reportRoutes,
    ...templateRoutes,
  ]),
});
