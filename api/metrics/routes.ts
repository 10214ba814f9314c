import { Router } from 'express';
import { z } from 'zod';
import { METRICS_CONTENT_TYPE, renderMetrics, setQueueDepthSource } from '../../platform/observability/metrics';
import { countQueuedByType } from '../../store/jobs/jobs';
import { builtInJobTypes } from '../jobs/job-types';
import type { AppDeps, RouteModule } from '../deps';
import { defineRoutes, route } from '../middleware/route';

/**
 * GET /metrics — the process's Prometheus metrics (text exposition format 0.0.4). Behind the API key like every
 * route except health; with config `metrics.bind` set it is served on that separate address instead (without the
 * key, see workers/metrics-server.ts) and not on the API port.
 */
const served = defineRoutes({
  name: 'metrics',
  mounts: ['/'],
  routes: [
    route({
      method: 'get',
      path: '/metrics',
      summary: 'Prometheus metrics of this process (on the metrics.bind address instead when that is set)',
      response: {
        description: 'Prometheus text exposition format',
        schema: z.string().describe('Prometheus text exposition format 0.0.4'),
        mediaTypes: ['text/plain'],
      },
      handler: async ({ res }) => {
        const text = await renderMetrics();
        res.setHeader('Content-Type', METRICS_CONTENT_TYPE);
        res.send(text);
        return undefined;
      },
    }),
  ],
});

/**
 * The API process's queue depth gauge reads its store's queued rows per job type at scrape time; every built-in
 * job type shows, 0 when nothing waits (a dashboard sees the series before the first job).
 */
export function watchQueueDepth(deps: Pick<AppDeps, 'store'>): () => void {
  const zero = Object.fromEntries(builtInJobTypes.map((t) => [t.type, 0]));
  return setQueueDepthSource(async () => ({ ...zero, ...(await countQueuedByType(deps.store.db)) }));
}

export const metricsRoutes: RouteModule = {
  ...served,
  router(deps) {
    watchQueueDepth(deps);
    return deps.config.metrics.bind ? Router() : served.router(deps);
  },
};
