import Mustache from 'mustache';
import type { ActionResult, ExecutionStatus } from '../../../schemas/automation';

/**
 * Renders `{{event.x}}` in every string of an action's parameters (nested objects and lists too). Values are
 * inserted as they are (no HTML escaping): parameters are table names, messages and JSON, not markup.
 */
export function renderParams(params: unknown, event: Record<string, unknown>): unknown {
  if (typeof params === 'string') return Mustache.render(params, { event }, {}, { escape: (v: unknown) => String(v) });
  if (Array.isArray(params)) return params.map((p) => renderParams(p, event));
  if (params && typeof params === 'object')
    return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, renderParams(v, event)]));
  return params;
}

/** An execution's end from its actions: all succeeded → succeeded; none → failed; some → partial. */
export function executionOutcome(actions: ActionResult[]): ExecutionStatus {
  const ran = actions.filter((a) => a.status !== 'skipped');
  const ok = ran.filter((a) => a.status === 'succeeded' || a.status === 'dry_run').length;
  const failed = ran.filter((a) => a.status === 'failed').length;
  if (failed === 0) return 'succeeded';
  return ok === 0 ? 'failed' : 'partial';
}

/** Webhook responses worth another attempt: 408, 429 and 5xx (a network error is retried too). */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
