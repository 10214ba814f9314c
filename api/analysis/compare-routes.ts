import {
  CatalogPairSchema,
  CompareRequestSchema,
  CompareResponseSchema,
  DiffResponseSchema,
  MonitorQuerySchema,
  MonitorResponseSchema,
  ValidateRequestSchema,
  ValidateResponseSchema,
} from '../../schemas/analysis';
import { recordSchemaDrift } from '../automation/drift-events';
import { route } from '../middleware/route';
import { compareCatalogs, diffCatalogs, monitorCatalogs, validateCatalogs } from './compare-service';
import { workspaceFor } from './names';
import { CatalogReader } from './reader';

const pairNames = (b: { source_catalog: string; destination_catalog: string; exclude_schemas?: string[] }) => ({
  source_catalog: b.source_catalog,
  destination_catalog: b.destination_catalog,
  exclude_schemas: b.exclude_schemas,
});
const ERRORS = { 404: 'The source catalog does not exist', 422: 'A name the workspace cannot take' };

/** Diff, validate, compare and monitor: synchronous reads of a source catalog and its clone. */
export const compareRoutes = [
  route({
    method: 'post',
    path: '/diff',
    summary: 'Objects present on one side only, and tables whose columns differ',
    role: 'viewer',
    request: { body: CatalogPairSchema },
    response: { description: 'The diff', schema: DiffResponseSchema },
    errors: ERRORS,
    handler: async ({ deps, req, input: { body } }) =>
      diffCatalogs(CatalogReader.for(deps, await workspaceFor(deps, req, pairNames(body))), body),
  }),
  route({
    method: 'post',
    path: '/validate',
    summary: "Row counts (and checksums) per table: the clone's post-clone validation, run alone",
    role: 'viewer',
    request: { body: ValidateRequestSchema },
    response: { description: 'Validation', schema: ValidateResponseSchema },
    errors: ERRORS,
    handler: async ({ deps, req, input: { body } }) =>
      validateCatalogs(CatalogReader.for(deps, await workspaceFor(deps, req, pairNames(body))), body),
  }),
  route({
    method: 'post',
    path: '/compare',
    summary: 'Per table: column drift, row counts, checksums and user properties that differ (delta.* ignored)',
    role: 'viewer',
    request: { body: CompareRequestSchema },
    response: { description: 'The comparison', schema: CompareResponseSchema },
    errors: ERRORS,
    handler: async ({ deps, req, input: { body } }) =>
      compareCatalogs(CatalogReader.for(deps, await workspaceFor(deps, req, pairNames(body))), body),
  }),
  route({
    method: 'post',
    path: '/monitor',
    summary:
      'Schema drift and (check_counts) count drift between a source and its clone, a verdict per table; each new drift is a schema.drift event',
    role: 'viewer',
    request: { query: MonitorQuerySchema },
    response: { description: 'The verdicts', schema: MonitorResponseSchema },
    errors: ERRORS,
    handler: async ({ deps, req, input: { query } }) => {
      const out = await monitorCatalogs(
        CatalogReader.for(deps, await workspaceFor(deps, req, pairNames(query))),
        { ...query, exclude_schemas: [] },
        new Date(),
      );
      await recordSchemaDrift(deps.store.db, out, out.tables);
      return out;
    },
  }),
];
