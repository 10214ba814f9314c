import type { RouteDef } from '../middleware/route';
import { defineRoutes } from '../middleware/route';
import { checkRoutes } from './check-routes';
import { generateRoutes } from './generate-routes';
import { profileRoutes, workbenchProfileRoutes } from './profile-routes';
import { impactRoutes } from './impact-routes';
import { opsRoutes } from './ops-routes';
import { runRoutes } from './run-routes';
import { scheduleRoutes } from './schedule-routes';
import { saveToDeltaRoute } from './save-to-delta';
import { yamlRoutes } from './yaml-routes';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- route defs differ in their schema types
type AnyRoute = RouteDef<any, any, any>;

/**
 * The specification gives these paths as /api/governance/… and /api/data-quality/…; paths under /governance
 * and /data-quality are served with and without the /api prefix, each in the OpenAPI document.
 */
const bothPrefixes = (routes: AnyRoute[]): AnyRoute[] => [
  ...routes.map((r) => ({ ...r, path: `/api${r.path}` })),
  ...routes.map((r) => ({ ...r, path: r.path })),
];

export const dataQualityRoutes = defineRoutes({
  name: 'data-quality',
  mounts: ['/'],
  routes: [
    ...bothPrefixes([
      ...yamlRoutes,
      saveToDeltaRoute,
      ...checkRoutes,
      ...runRoutes,
      ...profileRoutes,
      ...generateRoutes,
      ...opsRoutes,
      ...scheduleRoutes,
      ...impactRoutes,
    ]),
    ...workbenchProfileRoutes,
  ],
});
