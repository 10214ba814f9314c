import { ApiError, type ErrorDetail } from '../../api/errors';

/**
 * Field paths of nested forms (a schedule's `schedule.cron`, a playbook's `actions.0.params.url`): the server's
 * details and ajv's findings keyed the same way, so each error lands at its own control. Pure logic.
 */

/** A server path as the form's field: `body.schedule.cron` → `schedule.cron`, `body/actions/0/type` → `actions.0.type`. */
export function fieldPath(path: string): string {
  const parts = path.split(/[./]/).filter(Boolean);
  return (['body', 'query', 'params'].includes(parts[0] ?? '') ? parts.slice(1) : parts).join('.');
}

/** The field errors of a failed call (null: not about fields; the caller shows the error box). */
export function fieldDetails(err: unknown): ErrorDetail[] | null {
  if (!(err instanceof ApiError) || !err.info.details.length) return null;
  return err.info.details.map((d) => ({ path: fieldPath(d.path), message: d.message }));
}

/** Findings of a validator run on a part of the body, named from the body's top (`cron` → `schedule.cron`). */
export function under(prefix: string, details: ErrorDetail[]): ErrorDetail[] {
  return details.map((d) => ({ path: d.path ? `${prefix}.${d.path}` : prefix, message: d.message }));
}

type Json = Record<string, unknown>;

/** `#/components/schemas/X` and friends, resolved in `doc` (one level of $ref at each step). */
function deref(doc: Json, s: unknown): Json | undefined {
  if (!s || typeof s !== 'object') return undefined;
  const ref = (s as Json).$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return s as Json;
  let at: unknown = doc;
  for (const seg of ref.slice(2).split('/')) at = (at as Json | undefined)?.[seg];
  return deref(doc, at);
}

/** The schema of `keys` inside `schema` (properties, or `items` for a `[]` key), $refs resolved through `doc`. */
export function subSchema(doc: object, schema: object | undefined, ...keys: string[]): object | undefined {
  let at = deref(doc as Json, schema);
  for (const k of keys) {
    at = deref(doc as Json, k === '[]' ? at?.items : (at?.properties as Json | undefined)?.[k]);
    if (!at) return undefined;
  }
  return at;
}
