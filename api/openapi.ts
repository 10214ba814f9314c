import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { versionInfo } from '../config/version';
import type { RouteModule } from './deps';

type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/**
 * The OpenAPI 3.1 document, generated from the zod schemas each route module registers. Schemas become
 * named components through `.meta({ id })` (as schemas/common.ts does), which needs no zod extension.
 */
export function buildOpenApiDocument(modules: RouteModule[]): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Required only when the server is started with an API key',
  });
  for (const mod of modules) mod.openapi?.(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Lakeward API',
      version: versionInfo().version,
      description: 'Clone, sync and govern Unity Catalog catalogs with durable Temporal workflows.',
    },
    security: [{ bearerAuth: [] }],
  });
}
