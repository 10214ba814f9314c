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
  if (r.schemas.body && !op.requestBody?.content['application/json'].schema) out.push('body schema undocumented');
  const success = Object.keys(op.responses)
    .filter((s) => /^2\d\d$/.test(s))
    .sort()[0];
  // Any media type counts: a stream documents its event schema under application/x-ndjson, say.
  const content = success ? Object.values(op.responses[success].content ?? {}) : [];
  const schema = content.find((c) => c.schema)?.schema;
  if (!schema || Object.keys(schema).length === 0) out.push(`no ${success ?? '2xx'} response schema`);
  return out;
}

test('every route the app serves is in the OpenAPI document with its request and success response schemas', async () => {
  const app = createApp(testAppDeps({ store }));
  const doc = (await request(app).get('/api/openapi.json').expect(200)).body;
  // The document itself is the one route it does not describe.
  const routes = appRoutes(app).filter((r) => r.path !== '/api/openapi.json');
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
