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
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
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
  return homogeneousTuplesAsArrays(document);
}

/**
 * A tuple whose items all have the same schema (a pair of record references, say) is written as an array of that
 * schema with exactly that many items: the same set of values as `prefixItems`, in the form every OpenAPI tool
 * reads (schemathesis, for one, rejected the `prefixItems` form as an invalid schema object). Tuples of different
 * item schemas keep `prefixItems`.
 */
function homogeneousTuplesAsArrays<T>(node: T): T {
  if (Array.isArray(node)) return node.map(homogeneousTuplesAsArrays) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = homogeneousTuplesAsArrays(value);
  const prefix = out.prefixItems;
  if (out.type === 'array' && Array.isArray(prefix) && prefix.length > 0 && out.items === undefined) {
    const first = JSON.stringify(prefix[0]);
    if (prefix.every((item) => JSON.stringify(item) === first)) {
      delete out.prefixItems;
      Object.assign(out, { items: prefix[0], minItems: prefix.length, maxItems: prefix.length });
    }
  }
  return out as T;
}
