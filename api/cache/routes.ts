import { Router } from 'express';
import { z } from 'zod';
import { ErrorBodySchema } from '../../schemas/common';
import { metadataCacheFor } from '.';
import type { RouteModule } from '../deps';
import { parsed, validate } from '../middleware/validate';

const invalidateBody = z.object({ catalog: z.string().min(1).max(255) }).strict();
const invalidate = { body: invalidateBody };
const statsSchema = z.object({ hits: z.number(), misses: z.number(), size: z.number(), ttl_seconds: z.number() });

/** The metadata cache: stats, clear, invalidate one catalog. Finished clones invalidate their catalogs too. */
export const cacheRoutes: RouteModule = {
  name: 'cache',
  router(deps) {
    const { cache, watcher } = metadataCacheFor(deps);
    return Router()
      .get('/cache/stats', async (_req, res) => {
        await watcher.sync();
        res.json(cache.stats());
      })
      .post('/cache/clear', (_req, res) => {
        cache.clear();
        res.json({ status: 'cleared' });
      })
      .post('/cache/invalidate', validate(invalidate), (_req, res) => {
        const { catalog } = parsed(res, invalidate).body;
        res.json({ status: 'invalidated', catalog, entries_removed: cache.invalidateCatalog(catalog) });
      });
  },
  openapi(registry) {
    const ok = (description: string, schema: z.ZodType) => ({
      description,
      content: { 'application/json': { schema } },
    });
    registry.registerPath({
      method: 'get',
      path: '/api/cache/stats',
      tags: ['cache'],
      summary: 'Metadata cache counters',
      responses: { 200: ok('Stats', statsSchema) },
    });
    registry.registerPath({
      method: 'post',
      path: '/api/cache/clear',
      tags: ['cache'],
      summary: 'Empty the metadata cache',
      responses: { 200: ok('Cleared', z.object({ status: z.literal('cleared') })) },
    });
    registry.registerPath({
      method: 'post',
      path: '/api/cache/invalidate',
      tags: ['cache'],
      summary: 'Drop the cached metadata of one catalog',
      request: { body: { content: { 'application/json': { schema: invalidateBody } } } },
      responses: {
        200: ok(
          'Invalidated',
          z.object({ status: z.literal('invalidated'), catalog: z.string(), entries_removed: z.number() }),
        ),
        400: { description: 'catalog missing', content: { 'application/json': { schema: ErrorBodySchema } } },
      },
    });
  },
};
