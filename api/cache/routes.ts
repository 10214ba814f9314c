import { z } from 'zod';
import { IdentifierSchema } from '../../schemas/common';
import { metadataCacheFor } from '.';
import { defineRoutes, route } from '../middleware/route';

const statsSchema = z.object({ hits: z.number(), misses: z.number(), size: z.number(), ttl_seconds: z.number() });

/** The metadata cache: stats, clear, invalidate one catalog. Finished clones invalidate their catalogs too. */
export const cacheRoutes = defineRoutes({
  name: 'cache',
  // Built with the router so the job-end watcher runs from the start; handlers get the same per-app cache.
  state: (deps) => metadataCacheFor(deps),
  routes: [
    route({
      method: 'get',
      path: '/cache/stats',
      summary: 'Metadata cache counters',
      response: { description: 'Stats', schema: statsSchema },
      handler: async ({ deps }) => {
        const { cache, watcher } = metadataCacheFor(deps);
        await watcher.sync();
        return cache.stats();
      },
    }),
    route({
      method: 'post',
      path: '/cache/clear',
      summary: 'Empty the metadata cache',
      response: { description: 'Cleared', schema: z.object({ status: z.literal('cleared') }) },
      handler: ({ deps }) => {
        metadataCacheFor(deps).cache.clear();
        return { status: 'cleared' as const };
      },
    }),
    route({
      method: 'post',
      path: '/cache/invalidate',
      summary: 'Drop the cached metadata of one catalog',
      request: { body: z.object({ catalog: IdentifierSchema }).strict() },
      response: {
        description: 'Invalidated',
        schema: z.object({ status: z.literal('invalidated'), catalog: z.string(), entries_removed: z.number() }),
      },
      handler: ({ deps, input }) => {
        const { catalog } = input.body;
        const removed = metadataCacheFor(deps).cache.invalidateCatalog(catalog);
        return { status: 'invalidated' as const, catalog, entries_removed: removed };
      },
    }),
  ],
});
