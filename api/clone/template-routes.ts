import path from 'node:path';
import { Router } from 'express';
import { z } from 'zod';
import { defaultTemplateSource, listTemplates, loadTemplate } from '../../config/templates';
import { ErrorBodySchema } from '../../schemas/common';
import { templateParamsSchema } from '../../schemas/safety';
import type { AppDeps, RouteModule } from '../deps';
import { notFound } from '../middleware/http-error';
import { parsed, validate } from '../middleware/validate';

/** Built-ins plus custom templates in `<config folder>/templates`. */
export function templateSourceFor(deps: Pick<AppDeps, 'config'>) {
  return defaultTemplateSource(
    deps.config.config_path ? path.join(path.dirname(deps.config.config_path), 'templates') : undefined,
  );
}

const byName = { params: templateParamsSchema };

/** GET /api/templates → [{name, description, clone_type}]; GET /api/templates/{name} → the whole template. */
export const templateRoutes: RouteModule = {
  name: 'templates',
  router(deps) {
    const router = Router();
    router.get('/templates', (_req, res) => {
      res.json(listTemplates(templateSourceFor(deps)));
    });
    router.get('/templates/:name', validate(byName), (_req, res) => {
      const { name } = parsed(res, byName).params;
      try {
        res.json(loadTemplate(name, templateSourceFor(deps)));
      } catch (err) {
        if ((err as Error).message.includes('unknown template'))
          throw notFound((err as Error).message.replace(/^template: /, ''));
        throw err;
      }
    });
    return router;
  },
  openapi(registry) {
    const item = z.object({ name: z.string(), description: z.string(), clone_type: z.string() });
    registry.registerPath({
      method: 'get',
      path: '/api/templates',
      tags: ['templates'],
      summary: 'Clone templates (built-in and custom)',
      responses: { 200: { description: 'Templates', content: { 'application/json': { schema: z.array(item) } } } },
    });
    registry.registerPath({
      method: 'get',
      path: '/api/templates/{name}',
      tags: ['templates'],
      summary: 'One template',
      request: { params: templateParamsSchema },
      responses: {
        200: {
          description: 'Template',
          content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } },
        },
        404: { description: 'Unknown template', content: { 'application/json': { schema: ErrorBodySchema } } },
      },
    });
  },
};
