import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
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
  registry.registerPath({
    method: 'get',
    path: '/api/openapi.json',
    tags: ['docs'],
    summary: 'This document (OpenAPI 3.1); rendered at /api/docs',
    security: [],
    responses: {
      200: {
        description: 'The OpenAPI document',
        content: { 'application/json': { schema: z.object({ openapi: z.string() }).catchall(z.unknown()) } },
      },
    },
  });
  for (const mod of modules) mod.openapi?.(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Lakeward API',
      version: versionInfo().version,
      description: [
        'Clone, sync and govern Unity Catalog catalogs with durable Temporal workflows.',
        '',
        '**Job events over WebSocket.** `GET /api/jobs/ws/{job_id}` (any job type) and `GET /api/clone/ws/{job_id}`',
        '(clone jobs) upgrade to a WebSocket that sends one `JobEvent` (components/schemas/JobEvent) per message:',
        'every event has `type`, `ts` (ISO 8601), `message`, `level` and `job_id`, plus fields of its type. It starts',
        'with a `status` snapshot, replays the run log, sends `progress` snapshots (planned totals from the first one)',
        'and closes with code 1000 after the event marked `final: true`. Send the text `ping` for `pong`. With an',
        'API key, send `Authorization: Bearer <key>` or `?api_key=<key>`.',
      ].join('\n'),
    },
    security: [{ bearerAuth: [] }],
  });
}
