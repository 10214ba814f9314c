/**
 * A clone template (GET /api/templates/{name}) read as request fields: each section's keys that are request
 * fields are what the template sets. The wizard marks them; a field the user edits is sent and wins.
 */
export function templateFieldValues(template: unknown, fieldNames: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!template || typeof template !== 'object') return out;
  const names = new Set(fieldNames);
  const visit = (obj: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(obj)) {
      if (names.has(k) && k !== 'template') out[k] = v;
      else if (v && typeof v === 'object' && !Array.isArray(v)) visit(v as Record<string, unknown>);
    }
  };
  for (const [k, v] of Object.entries(template as Record<string, unknown>)) {
    if (k === 'name' || k === 'description' || k === 'version') continue;
    if (names.has(k)) out[k] = v;
    else if (v && typeof v === 'object' && !Array.isArray(v)) visit(v as Record<string, unknown>);
  }
  return out;
}

/** The request: the user's edits over nothing else (the server applies the template named in `template`). */
export function buildCloneRequest(edits: Record<string, unknown>, template: string | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(edits)) if (v !== undefined) body[k] = v;
  if (template) body.template = template;
  return body;
}
