import type { ServingEndpoint, StatementResponse, Warehouse } from '../../platform/databricks/rest/workspace-api';

/** Pure mappings of Databricks REST answers to the auth routes' shapes (tested without a server). */

export function warehouseKind(w: { warehouse_type?: string; enable_serverless_compute?: boolean }) {
  if (w.enable_serverless_compute) return 'Serverless' as const;
  if (w.warehouse_type === 'CLASSIC') return 'Classic' as const;
  return w.warehouse_type === 'PRO' ? ('Pro' as const) : null;
}

export function warehouseItem(w: Warehouse) {
  return { id: w.id, name: w.name, size: w.cluster_size ?? null, state: w.state ?? null, type: warehouseKind(w) };
}

/**
 * Only READY endpoints. The provider is the external model's (anthropic, openai, …), `databricks` for a
 * foundation model, else null; `is_claude` when the endpoint or a served model's name says claude.
 */
export function servingItems(endpoints: ServingEndpoint[]) {
  return endpoints
    .filter((e) => e.state?.ready === 'READY')
    .map((e) => {
      const entities = e.config?.served_entities ?? [];
      const external = entities.find((x) => x.external_model)?.external_model;
      const foundation = entities.find((x) => x.foundation_model)?.foundation_model;
      const names = [
        e.name,
        ...entities.flatMap((x) => [x.name, x.entity_name, x.external_model?.name, x.foundation_model?.name]),
      ];
      return {
        name: e.name,
        state: 'READY',
        provider: external?.provider ?? (foundation ? 'databricks' : null),
        is_claude: names.some((n) => typeof n === 'string' && /claude/i.test(n)),
      };
    });
}

/** `SELECT 1` through the Statement Execution API → the route's {status, message, result}. */
export function statementOutcome(warehouseId: string, r: StatementResponse) {
  const state = r.status?.state ?? 'UNKNOWN';
  if (state !== 'SUCCEEDED')
    return {
      status: 'error' as const,
      message: `warehouse ${warehouseId}: ${state}${r.status?.error?.message ? `: ${r.status.error.message}` : ''}`,
      result: null,
    };
  const cell = r.result?.data_array?.[0]?.[0];
  return {
    status: 'success' as const,
    message: `warehouse ${warehouseId} answered SELECT 1`,
    result: cell === undefined ? null : Number(cell),
  };
}
