import Ajv2020 from 'ajv/dist/2020';
import type { ErrorDetail } from '../../api/errors';
import type { JsonSchema } from './fields';

/**
 * Pre-validation with ajv against the request schema from the server's own OpenAPI document (components are
 * resolved through the document). Errors come out as the API's details: `path` is the top-level field.
 */
export function createRequestValidator(doc: object, schema: JsonSchema) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...doc, $id: 'openapi.json' } as object, 'openapi.json');
  const fixRefs = (s: unknown): unknown => {
    if (Array.isArray(s)) return s.map(fixRefs);
    if (!s || typeof s !== 'object') return s;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s)) {
      out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi.json${v}` : fixRefs(v);
    }
    return out;
  };
  const validate = ajv.compile(fixRefs(schema) as object);
  return (body: Record<string, unknown>): ErrorDetail[] => {
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => {
      const segs = e.instancePath.split('/').filter(Boolean);
      const field =
        segs[0] ?? (e.keyword === 'required' ? String((e.params as { missingProperty?: string }).missingProperty) : '');
      const where = segs.length > 1 ? ` (${segs.slice(1).join('.')})` : '';
      const message =
        e.keyword === 'required'
          ? 'is required'
          : e.keyword === 'additionalProperties'
            ? `unknown field ${(e.params as { additionalProperty?: string }).additionalProperty}`
            : `${e.message ?? 'is not valid'}${where}`;
      return { path: field, message };
    });
  };
}
