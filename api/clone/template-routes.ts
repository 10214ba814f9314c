import path from 'node:path';
import { z } from 'zod';
import { defaultTemplateSource, listTemplates, loadTemplate } from '../../config/templates';
import { templateSchema } from '../../activities/clone/logic/template-schema';
import { templateParamsSchema } from '../../schemas/clone-safety';
import type { AppDeps } from '../deps';
import { notFound } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';

/** Built-ins plus custom templates in `<config folder>/templates`. */
export function templateSourceFor(deps: Pick<AppDeps, 'config'>) {
  return defaultTemplateSource(
    deps.config.config_path ? path.join(path.dirname(deps.config.config_path), 'templates') : undefined,
  );
}

const item = z.object({ name: z.string(), description: z.string(), clone_type: z.string() });

/** GET /api/templates → [{name, description, clone_type}]; GET /api/templates/{name} → the whole template. */
export const templateRoutes = defineRoutes({
  name: 'templates',
  routes: [
    route({
      method: 'get',
      path: '/templates',
      summary: 'Clone templates (built-in and custom)',
      response: { description: 'Templates', schema: z.array(item) },
      handler: ({ deps }) => listTemplates(templateSourceFor(deps)),
    }),
    route({
      method: 'get',
      path: '/templates/:name',
      summary: 'One template',
      request: { params: templateParamsSchema },
      response: { description: 'Template', schema: templateSchema },
      errors: { 404: 'Unknown template' },
      handler: ({ deps, input }) => {
        try {
          return loadTemplate(input.params.name, templateSourceFor(deps));
        } catch (err) {
          if ((err as Error).message.includes('unknown template'))
            throw notFound((err as Error).message.replace(/^template: /, ''));
          throw err;
        }
      },
    }),
  ],
});
