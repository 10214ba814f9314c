import type { Request } from 'express';
import { CallerSchema, WebOperationsSchema, type WebOperations } from '../../schemas/web';
import type { RouteModule } from '../deps';
import { callerOf, configuredKeys } from '../middleware/auth';
import { defineRoutes, route } from '../middleware/route';
import { webOperations } from './operations';

/** The app's route modules, which api/app.ts leaves in `app.locals.routeModules`. */
const modulesOf = (req: Request) => (req.app.locals.routeModules ?? []) as RouteModule[];

/**
 * What the web console's shell asks first: the API's operations with their roles (which pages show, which
 * actions are enabled) and the caller's role. Both are small and cached by the browser's query cache.
 */
export const webRoutes = defineRoutes<{ operations?: WebOperations }>({
  name: 'web',
  state: () => ({}),
  routes: [
    route({
      method: 'get',
      path: '/web/operations',
      summary: 'Every operation of the API with the least role it needs (the OpenAPI document without its schemas)',
      security: [],
      response: { description: 'The operations, sorted', schema: WebOperationsSchema },
      handler: ({ req, state }) => (state.operations ??= webOperations(modulesOf(req))),
    }),
    route({
      method: 'get',
      path: '/auth/me',
      summary: "The caller as the API sees it: the key's name and role (admin for everyone when keys are off)",
      tags: ['auth'],
      response: { description: 'The caller', schema: CallerSchema },
      handler: ({ req, deps }) => {
        const caller = callerOf(req);
        const on = configuredKeys(deps.config.api_server).length > 0;
        return { name: caller.name, role: caller.role, authentication: on ? 'on' : 'off' } as const;
      },
    }),
  ],
});
