import request from 'supertest';
import { z } from 'zod';
import { createApp } from '../../api/app';
import { defineRoutes, openApiPath, route, serialiseOnce } from '../../api/middleware/route';
import { paginationQuery } from '../../schemas/common';
import type { Store } from '../../store/db';
import { createTestStore } from '../helpers/db';
import { testAppDeps } from './deps';

let store: Store;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(async () => store?.close());

const item = z.object({ id: z.string(), limit: z.number(), offset: z.number() });
const things = defineRoutes({
  name: 'things',
  mounts: ['/api', '/'],
  state: () => ({ created: 0 }),
  routes: [
    route({
      method: 'get',
      path: '/things/:thingId',
      summary: 'One thing',
      request: { params: z.object({ thingId: z.string().min(2) }), query: paginationQuery(7) },
      response: { description: 'The thing', schema: item },
      errors: { 404: 'Unknown thing' },
      handler: ({ input }) => ({ id: input.params.thingId, ...input.query }),
    }),
    route({
      method: 'post',
      path: '/things',
      summary: 'Make a thing',
      request: { body: z.object({ name: z.string() }).strict() },
      response: { status: 201, description: 'Made', schema: z.object({ n: z.number(), name: z.string() }) },
      handler: ({ input, state }) => ({ n: ++(state as { created: number }).created, name: input.body.name }),
    }),
  ],
});

const app = () => createApp(testAppDeps({ store }), [things]);

test('the Express path is written once: `:id` becomes `{id}` in OpenAPI', () => {
  expect(openApiPath('/clone/:jobId/logs')).toBe('/clone/{jobId}/logs');
});

test('a defined route validates its parts and answers with the parsed values on every mount', async () => {
  for (const prefix of ['/api', '']) {
    const res = await request(app()).get(`${prefix}/things/ab?offset=3`).expect(200);
    expect(res.body).toEqual({ id: 'ab', limit: 7, offset: 3 });
  }
  const bad = await request(app()).get('/api/things/a?limit=0').expect(400);
  expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['params.thingId', 'query.limit']);
});

test('the success status comes from the definition and state lives per app', async () => {
  const a = app();
  await request(a).post('/api/things').send({ name: 'x' }).expect(201, { n: 1, name: 'x' });
  await request(a).post('/api/things').send({ name: 'y' }).expect(201, { n: 2, name: 'y' });
  const bad = await request(a).post('/api/things').send({ name: 'z', extra: 1 }).expect(400);
  expect(bad.body.error.details).toEqual([{ path: 'body.extra', message: 'unknown field' }]);
});

test('the OpenAPI entry carries the same path, method, request schemas and responses', async () => {
  const doc = (await request(app()).get('/api/openapi.json').expect(200)).body;
  const get = doc.paths['/api/things/{thingId}'].get;
  expect(doc.paths['/things/{thingId}'].get).toBeDefined();
  expect(get.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`).sort()).toEqual([
    'path:thingId',
    'query:limit',
    'query:offset',
  ]);
  expect(get.responses['200'].content['application/json'].schema.properties).toHaveProperty('offset');
  // 401 and 403: every route behind the API key documents them, and the least role it needs.
  expect(Object.keys(get.responses).sort()).toEqual(['200', '400', '401', '403', '404']);
  expect(get['x-required-role']).toBe('viewer');
  const post = doc.paths['/api/things'].post;
  expect(post.requestBody.content['application/json'].schema.properties).toHaveProperty('name');
  expect(post.responses['201'].content['application/json'].schema.properties).toHaveProperty('n');
});

test('an answer shared by several requests (serialiseOnce) is turned into JSON once and sent to each as res.json would', async () => {
  let serialised = 0;
  const answer = (marked: boolean) => {
    const body = { id: 'shared', toJSON: () => (serialised++, { id: 'shared', n: 1 }) };
    // toJSON counts the serialisations; the route's schema is what the JSON text holds.
    return (marked ? serialiseOnce(body) : body) as unknown as { id: string; n: number };
  };
  const sharedAnswer = answer(true);
  const plainAnswer = answer(false);
  const shared = defineRoutes({
    name: 'shared',
    routes: [
      route({
        method: 'get',
        path: '/shared/:kind',
        summary: 'A shared or a plain answer',
        request: { params: z.object({ kind: z.enum(['shared', 'plain']) }) },
        response: { description: 'The answer', schema: z.object({ id: z.string(), n: z.number() }) },
        handler: ({ input }) => (input.params.kind === 'shared' ? sharedAnswer : plainAnswer),
      }),
    ],
  });
  const app = createApp(testAppDeps({ store }), [shared]);
  const plain = await request(app).get('/api/shared/plain').expect(200);
  for (let i = 0; i < 3; i++) {
    const res = await request(app).get('/api/shared/shared').expect(200);
    expect(res.text).toBe(plain.text);
    expect(res.headers['content-type']).toBe(plain.headers['content-type']);
    expect(res.headers.etag).toBe(plain.headers.etag);
  }
  expect(serialised).toBe(2); // the plain answer once, the shared one once for its three requests
  await request(app).get('/api/shared/plain').expect(200);
  expect(serialised).toBe(3); // an unmarked answer is serialised again for every request
});
