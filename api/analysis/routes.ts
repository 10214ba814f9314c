import { defineRoutes } from '../middleware/route';
import { compareRoutes } from './compare-routes';
import { lineageRoutes } from './lineage-routes';
import { sampleRoutes } from './sample-routes';
import { statsRoutes } from './stats-routes';
import { ucObjectsRoute } from './uc-objects';
import { usageRoutes } from './usage-routes';

/** Synchronous reads: diff, validate, compare, monitor, samples, lineage, impact, dependencies, usage, pickers. */
export const analysisRoutes = defineRoutes({
  name: 'analysis',
  routes: [...compareRoutes, ...sampleRoutes, ...lineageRoutes, ...usageRoutes, ucObjectsRoute, ...statsRoutes],
});
