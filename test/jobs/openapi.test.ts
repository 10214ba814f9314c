import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { openApiPath } from '../../api/middleware/route';
import type { RequestSchemas } from '../../api/middleware/validate';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

let store: Store;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(async () => store?.close());

interface Layer {
  rawPath?: string;
  route?: { path: string; methods: Record<string, boolean>; stack: { handle: { requestSchemas?: RequestSchemas } }[] };
  handle: { stack?: Layer[] };
}
interface AppRoute {
  method: string;
  path: string;
  schemas: RequestSchemas;
}

/** Every route the app answers, read from Express's router stack (mounted routers included). */
function appRoutes(app: Express): AppRoute[] {
  const walk = (stack: Layer[], prefix: string): AppRoute[] =>
    stack.flatMap((layer) => {
      if (layer.route) {
        const path = `${prefix}${layer.route.path}`;
        const schemas = Object.assign({}, ...layer.route.stack.map((s) => s.handle.requestSchemas ?? {}));
        return Object.keys(layer.route.methods).map((method) => ({ method, path, schemas }));
      }
      const rawPath = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      return layer.handle.stack ? walk(layer.handle.stack, `${prefix}${rawPath}`) : [];
    });
  return walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
}

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: { 'application/json': { schema: object } } };
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
  security?: unknown[];
}

/** What is missing from the document for one route ([] when it is fully described). */
function problems(doc: { paths: Record<string, Record<string, Operation>> }, r: AppRoute): string[] {
  const op = doc.paths[openApiPath(r.path)]?.[r.method];
  if (!op) return ['not in the document'];
  const out: string[] = [];
  const params = (where: string) => (op.parameters ?? []).filter((p) => p.in === where).map((p) => p.name);
  for (const [, name] of r.path.matchAll(/:([A-Za-z_]\w*)/g))
    if (!params('path').includes(name)) out.push(`path parameter ${name} undocumented`);
  if (r.schemas.query && params('query').length === 0) out.push('query schema undocumented');
  // A JSON body, or another media type's (a multipart upload form).
  const bodySchema = Object.values(op.requestBody?.content ?? {}).some((c) => c.schema);
  if (r.schemas.body && !bodySchema) out.push('body schema undocumented');
  const success = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s));
  if (success.length === 0) out.push('no 2xx response');
  // Every response it declares has a schema; any media type counts (a stream documents its event schema).
  for (const [status, response] of Object.entries(op.responses)) {
    const schema = Object.values(response.content ?? {}).find((c) => c.schema)?.schema;
    if (!schema || Object.keys(schema).length === 0) out.push(`no ${status} response schema`);
  }
  const open = Array.isArray(op.security) && op.security.length === 0;
  if (!open && !op.responses['401']) out.push('secured but no 401 response');
  if (op.requestBody && !op.responses['413']) out.push('takes a body but no 413 response');
  if ((r.schemas.query || r.schemas.params || op.requestBody) && !op.responses['400']) out.push('no 400 response');
  return out;
}

test('every route the app serves is in the OpenAPI document with its request schemas and every response with a schema', async () => {
  const app = createApp(testAppDeps({ store }));
  const doc = (await request(app).get('/api/openapi.json').expect(200)).body;
  const routes = appRoutes(app);
  expect(routes.length).toBeGreaterThan(20);
  const missing = Object.fromEntries(
    routes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, problems(doc, r)]).filter(([, p]) => p.length > 0),
  );
  expect(missing).toEqual({});
});

test('the document describes no route the app does not serve', async () => {
  const app = createApp(testAppDeps({ store }));
  const doc = (await request(app).get('/api/openapi.json').expect(200)).body as { paths: Record<string, object> };
  const served = new Set(appRoutes(app).map((r) => `${r.method} ${openApiPath(r.path)}`));
  const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
  expect(documented.filter((d) => !served.has(d))).toEqual([]);
});

test('the clone request documents every field, and QUEUE_FULL', async () => {
  const doc = (
    await request(createApp(testAppDeps({ store })))
      .get('/api/openapi.json')
      .expect(200)
  ).body;
  expect(doc.paths['/api/clone'].post.responses['429']).toBeDefined();
  expect(
    Object.keys(doc.paths['/api/clone'].post.requestBody.content['application/json'].schema.properties ?? {}),
  ).toContain('dq_drift_rollback_pct');
});

test('clone endpoints answer 503 when the server has no Temporal connection', async () => {
  const res = await request(createApp(testAppDeps({ store })))
    .post('/api/clone')
    .send({ source_catalog: 'a', destination_catalog: 'b' })
    .expect(503);
  expect(res.body.error.code).toBe('TEMPORAL_UNAVAILABLE');
});

test('the document describes the job event every WebSocket and log stream sends', async () => {
  const doc = (
    await request(createApp(testAppDeps({ store })))
      .get('/api/openapi.json')
      .expect(200)
  ).body;
  expect(doc.info.description).toContain('/api/jobs/ws/{job_id}');
  expect(doc.components.schemas.JobEvent.required).toEqual(
    expect.arrayContaining(['type', 'job_id', 'ts', 'message', 'level']),
  );
  const logs = doc.paths['/api/jobs/{jobId}/logs'].get.responses['200'];
  expect(JSON.stringify(logs)).toContain('#/components/schemas/JobEvent');
});

test('with an API key a secured route answers the documented 401, and the document and its reference stay open', async () => {
  const app = createApp(testAppDeps({ store, flags: { apiKey: 'fuzz-key' } }));
  const doc = (await request(app).get('/api/openapi.json').expect(200)).body;
  expect(doc.paths['/api/jobs'].get.responses['401'].content['application/json'].schema.$ref).toBe(
    '#/components/schemas/ErrorBody',
  );
  const denied = await request(app).get('/api/jobs').expect(401);
  expect(denied.body.error.code).toBe('UNAUTHORIZED');

  const page = await request(app)
    .get('/api/docs')
    .expect(200)
    .expect('Content-Type', /text\/html/);
  // The renderer comes from the installed swagger-ui-dist package, not a CDN.
  expect(page.text).not.toMatch(/https?:\/\//);
  for (const asset of page.text.match(/\/api\/docs\/[\w.-]+/g) ?? []) await request(app).get(asset).expect(200);
  expect(page.text).toContain('/api/docs/swagger-ui-bundle.js');
  expect((await request(app).get('/api/docs/init.js').expect(200)).text).toContain('"/api/openapi.json"');
  // Only the files the page needs are served from the package (not its index.html with the petstore URL).
  await request(app).get('/api/docs/package.json').expect(404);
  await request(app).get('/api/docs/index.html').expect(404);
});

test('a JSON body over the limit answers the documented 413', async () => {
  const app = createApp(testAppDeps({ store, flags: {} }));
  const doc = (await request(app).get('/api/openapi.json').expect(200)).body;
  expect(doc.paths['/api/clone'].post.responses['413']).toBeDefined();
  const res = await request(app)
    .post('/api/clone')
    .set('Content-Type', 'application/json')
    .send(JSON.stringify({ source_catalog: 'a', destination_catalog: 'b', pad: 'x'.repeat(2 * 1024 * 1024) }))
    .expect(413);
  expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
});

test('every pattern in the document is a flagless ECMA-262 regex that accepts what the API accepts', async () => {
  const app = createApp(testAppDeps({ store }));
  const doc = (await request(app).get('/api/openapi.json').expect(200)).body as unknown;
  const patterns = new Map<string, string>();
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${at}/${i}`));
    else if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) {
        if (k === 'pattern' && typeof v === 'string') patterns.set(v, at);
        else walk(v, `${at}/${k}`);
      }
  };
  walk(doc, '');
  expect(patterns.size).toBeGreaterThan(5);
  // A JSON Schema pattern carries no flags: a regex's `/i` must not leak into it as text.
  const bad = [...patterns].filter(([p]) => /\/[dgimsuvy]+$/.test(p)).map(([p, at]) => `${at}: ${p.slice(-40)}`);
  expect(bad).toEqual([]);
  for (const p of patterns.keys()) expect(() => new RegExp(p, 'u')).not.toThrow();
  // The case-insensitive ones kept their meaning.
  const find = (needle: string) => [...patterns.keys()].find((p) => p.includes(needle));
  const days = new RegExp(find('[mM][oO][nN]') ?? 'missing');
  expect(['Mon-Fri', 'saturday,SUNDAY', '22:00-06:00'].map((v) => days.test(v))).toEqual([true, true, true]);
  expect(days.test('someday')).toBe(false);
  const field = new RegExp(find('[a-zA-Z_][a-zA-Z0-9_]*(') ?? 'missing');
  expect([field.test('Failure_Rate'), field.test('event.table'), field.test('1x')]).toEqual([true, true, false]);
  const sqlType = new RegExp(find('[dD][eE][cC][iI][mM][aA][lL]') ?? 'missing');
  expect(['decimal(10,2)', 'Timestamp_NTZ', 'STRING', 'text'].map((v) => sqlType.test(v))).toEqual([
    true,
    true,
    true,
    false,
  ]);
});
