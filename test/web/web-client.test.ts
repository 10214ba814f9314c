import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { OPENAPI_JSON, ROOT } from '../../scripts/web-gen';
import { PAGES } from '../../web/src/manifest';
import { cloneFields, cloneRequestSchema, GROUPS } from '../../web/src/pages/clone/fields';

type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };
const committed = (): Doc => JSON.parse(fs.readFileSync(OPENAPI_JSON, 'utf8'));

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

/** A 2xx body the console can type: properties, items or a named component, not a bare record. */
function typed(doc: Doc, schema: any): boolean {
  if (!schema) return false;
  if (schema.$ref) return typed(doc, doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]);
  if (schema.anyOf || schema.oneOf || schema.allOf)
    return (schema.anyOf ?? schema.oneOf ?? schema.allOf).every((s: any) => typed(doc, s));
  if (schema.type === 'array') return typed(doc, schema.items);
  if (schema.type === 'object') return Object.keys(schema.properties ?? {}).length > 0;
  return typeof schema.type === 'string' || Array.isArray(schema.type);
}

describe('web console client (web/src/api)', () => {
  it('is generated from the current route modules: openapi.json and schema.d.ts are not stale (npm run web:gen)', () => {
    // In a child process: openapi-typescript loads ES modules jest's CommonJS runtime cannot.
    const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
    const run = spawnSync(process.execPath, [tsx, 'scripts/web-gen.ts', '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr.trim()).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);

  it('calls only operations the document has, each with a typed 2xx answer', () => {
    const doc = committed();
    const problems: string[] = [];
    for (const page of PAGES) {
      for (const op of page.operations) {
        const [method, p] = op.split(' ');
        const operation = doc.paths[p]?.[method];
        if (!operation) {
          problems.push(`${page.id}: ${op} is not in the OpenAPI document`);
          continue;
        }
        const ok = Object.entries(operation.responses ?? {}).filter(([code]) => /^2/.test(code));
        // JSON, or the one media type a non-JSON answer has (a notebook's export is text/plain: a string).
        const schemas = ok.map(
          ([, r]: [string, any]) =>
            r.content?.['application/json']?.schema ?? (Object.values(r.content ?? {})[0] as any)?.schema,
        );
        if (!schemas.length || !schemas.every((s) => typed(doc, s)))
          problems.push(`${page.id}: ${op} has an untyped 2xx`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives every field of the POST /api/clone request schema a labelled control in a named group', () => {
    const schema = cloneRequestSchema(committed());
    const props = Object.keys(schema?.properties ?? {});
    expect(props).toEqual(
      expect.arrayContaining(['source_catalog', 'destination_catalog', 'parallel_tables', 'throttle']),
    );
    const fields = cloneFields(schema!);
    expect(fields.map((f) => f.name).sort()).toEqual([...props].sort());
    const grouped = new Set(Object.values(GROUPS).flat());
    const ungrouped = props.filter((p) => !grouped.has(p));
    expect(ungrouped).toEqual([]); // a new request field gets a group (it would show under "Other" meanwhile)
    for (const f of fields) expect(f.label).toMatch(/\S/);
    expect(fields.find((f) => f.name === 'parallel_tables')?.kind).toBe('integer');
    expect(fields.find((f) => f.name === 'clone_type')?.options).toEqual(['DEEP', 'SHALLOW']);
  });

  it('has no stray fetch( and no mock data in web/src', () => {
    const src = path.join(ROOT, 'web/src');
    const code = filesUnder(src).filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('schema.d.ts'));
    const strayFetch = code.filter(
      (f) => !f.endsWith(path.join('api', 'client.ts')) && /\bfetch\(/.test(fs.readFileSync(f, 'utf8')),
    );
    expect(strayFetch.map((f) => path.relative(ROOT, f))).toEqual([]);
    const mocks = code.filter((f) => /\b(mock|faker|lorem ipsum|msw)\b/i.test(fs.readFileSync(f, 'utf8')));
    expect(mocks.map((f) => path.relative(ROOT, f))).toEqual([]);
  });
});
