import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { versionInfo } from '../../config/version';
import type { Role } from '../../schemas/governance';
import type { WebOperations } from '../../schemas/web';
import type { RouteModule } from '../deps';

/**
 * Every operation the route modules register, as "<method> <OpenAPI path>" with its least role (null = open),
 * read from the registry's definitions without generating the document: the console's shell decides which pages
 * show from this list (a few KB) instead of the full OpenAPI document (about 2 MB, a second to build the first time).
 */
export function webOperations(modules: RouteModule[]): WebOperations {
  const registry = new OpenAPIRegistry();
  for (const mod of modules) mod.openapi?.(registry);
  const seen = new Map<string, Role | null>([['get /api/openapi.json', null]]);
  for (const def of registry.definitions) {
    if (def.type !== 'route') continue;
    const r = def.route as typeof def.route & { 'x-required-role'?: Role };
    seen.set(`${r.method} ${r.path}`, r['x-required-role'] ?? null);
  }
  const operations = [...seen].map(([operation, role]) => ({ operation, role }));
  operations.sort((a, b) => a.operation.localeCompare(b.operation));
  return { version: versionInfo().version, operations };
}
