import Ajv2019 from 'ajv/dist/2019';
import odcsSchema from '../../../schemas/odcs/odcs-json-schema-v3.0.2.json';

/** The ODCS version Lakeward writes: the vendored official JSON Schema's (schemas/odcs/README.md). */
export const ODCS_API_VERSION = 'v3.0.2';

export interface OdcsIssue {
  /** JSON path of the offending value, `$.schema[0].properties[1].logicalType`. */
  path: string;
  message: string;
}

let compiled: ReturnType<Ajv2019['compile']> | undefined;
function validator() {
  if (!compiled) {
    // strict off: the official schema uses `examples` and keywords ajv's strict mode rejects.
    const ajv = new Ajv2019({ allErrors: true, strict: false, validateFormats: false });
    compiled = ajv.compile(odcsSchema);
  }
  return compiled;
}

/** `/schema/0/properties/1` → `$.schema[0].properties[1]`. */
function jsonPath(pointer: string): string {
  return (
    '$' +
    pointer
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
      .join('')
  );
}

/**
 * Problems of a document against the official ODCS JSON Schema, most specific first; empty when it is valid.
 * The `if/then` wrappers of the schema add a generic "must match then schema" beside the real cause: dropped.
 */
export function odcsIssues(doc: unknown): OdcsIssue[] {
  const validate = validator();
  if (validate(doc)) return [];
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if');
  const unevaluated = (k: string) => k === 'unevaluatedProperties' || k === 'additionalProperties';
  // A value failing inside an object leaves all its fields "unevaluated": keep only the real cause there.
  const causes = errors.filter((e) => !unevaluated(e.keyword)).map((e) => e.instancePath);
  const seen = new Set<string>();
  const issues: OdcsIssue[] = [];
  for (const e of errors) {
    if (unevaluated(e.keyword) && causes.some((c) => c.startsWith(`${e.instancePath}/`))) continue;
    let path = jsonPath(e.instancePath);
    let message = e.message ?? 'is invalid';
    if (unevaluated(e.keyword)) {
      const extra = (e.params as { unevaluatedProperty?: string; additionalProperty?: string }) ?? {};
      const key = extra.unevaluatedProperty ?? extra.additionalProperty;
      if (key) {
        path = `${path}.${key}`;
        message = 'is not a field of the ODCS schema here';
      }
    } else if (e.keyword === 'required') {
      const missing = (e.params as { missingProperty?: string }).missingProperty;
      if (missing) {
        path = `${path}.${missing}`;
        message = 'is required';
      }
    } else if (e.keyword === 'enum') {
      message = `must be one of ${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', ')}`;
    }
    const key = `${path} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ path, message });
  }
  return issues.sort((a, b) => b.path.length - a.path.length);
}
