import { z } from 'zod';
import {
  EstimateBodySchema,
  EstimateResultSchema,
  IncrementalCheckBodySchema,
  IncrementalCheckResultSchema,
  IncrementalSyncBodySchema,
  SyncBodySchema,
  SyncDryRunResultSchema,
  SyncJobAcceptedSchema,
} from '../../schemas/sync';
import { defineRoutes, route } from '../middleware/route';
import { catalogSync, estimate, incrementalCheck, submitIncrementalSync } from './service';

export const syncRoutes = defineRoutes({
  name: 'sync',
  routes: [
    route({
      method: 'post',
      path: '/incremental/check',
      role: 'viewer',
      summary:
        'Which tables of a schema need syncing into the destination since their last clone (new, source_changed, schema_changed, in_sync), and whether by MERGE or copy',
      request: { body: IncrementalCheckBodySchema },
      response: { description: 'The schema check', schema: IncrementalCheckResultSchema },
      errors: { 404: 'No such source catalog or schema', 422: 'A name the workspace cannot hold' },
      handler: async ({ deps, input: { body } }) => incrementalCheck(deps, body),
    }),
    route({
      method: 'post',
      path: '/incremental/sync',
      summary:
        'Syncs the tables the incremental check lists as an incremental_sync job (MERGE of small change feeds, else a copy through the clone workflow)',
      request: { body: IncrementalSyncBodySchema },
      response: { description: 'The queued job', schema: SyncJobAcceptedSchema },
      errors: {
        404: 'No such source catalog or schema',
        422: 'A name the workspace cannot hold',
        429: 'Too many sync jobs waiting',
      },
      handler: async ({ deps, input: { body } }) => submitIncrementalSync(deps, body),
    }),
    route({
      method: 'post',
      path: '/sync',
      summary:
        'Two-way catalog sync: creates what the destination lacks, re-syncs what changed, drops destination-only objects when drop_extra; dry_run answers the plan and changes nothing',
      request: { body: SyncBodySchema },
      response: {
        description: 'The queued sync job, or with dry_run the plan',
        schema: z.union([SyncJobAcceptedSchema, SyncDryRunResultSchema]),
      },
      errors: {
        404: 'No such source catalog',
        422: 'A name the workspace cannot hold',
        429: 'Too many sync jobs waiting',
      },
      handler: async ({ deps, input: { body } }) => catalogSync(deps, body),
    }),
    route({
      method: 'post',
      path: '/estimate',
      role: 'viewer',
      summary:
        'Size and file count per table, DEEP and SHALLOW durations from recorded throughput, and the selective block (null when the destination catalog does not exist)',
      request: { body: EstimateBodySchema },
      response: { description: 'The estimate', schema: EstimateResultSchema },
      errors: { 404: 'No such source catalog', 422: 'A name the workspace cannot hold' },
      handler: async ({ deps, input: { body } }) => estimate(deps, body),
    }),
  ],
});
