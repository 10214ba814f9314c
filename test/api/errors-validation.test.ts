import { Router } from 'express';
import request from 'supertest';
import { z } from 'zod';
import { createApp, routeModules } from '../../api/app';
import type { RouteModule } from '../../api/deps';
import { parsed, validate } from '../../api/middleware/validate';
import { AlreadyExistsError, NotFoundError, PermissionDeniedError } from '../../platform/errors';
import type { Store } from '../../store/db';
import { createTestStore } from '../helpers/db';
import { LogCapture, testAppDeps } from './deps';

let store: Store;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(async () => {
  await store?.close();
});

const cloneLike = {
  body: z.object({ source_catalog: z.string().min(1), clone_type: z.enum(['DEEP', 'SHALLOW']).default('DEEP') }),
  query: z.object({ dry_run: z.coerce.boolean().default(false) }),
};

/** A module shaped like the domain routers: validate() then a handler reading the parsed input. */
const probe: RouteModule = {
  name: 'probe',
  router: () =>
    Router()
      .post('/probe', validate(cloneLike), (_req, res) => {
        res.json(parsed(res, cloneLike));
      })
      .get('/probe/missing', async () => Promise.reject(new NotFoundError('Catalog not found: nope')))
      .get('/probe/exists', async () => Promise.reject(new AlreadyExistsError('Table exists: a.b.c')))
      .get('/probe/denied', async () => Promise.reject(new PermissionDeniedError('No USE CATALOG on a')))
      .get('/probe/crash', async () => Promise.reject(new Error('secret internal detail'))),
};

const app = (logs = new LogCapture(), jsonLimit?: string) => {
  const deps = testAppDeps({ store, logs });
  if (jsonLimit) deps.config.api_server.json_limit = jsonLimit;
  return createApp(deps, [...routeModules, probe]);
};

test('a valid body reaches the handler parsed, with defaults applied', async () => {
  const res = await request(app()).post('/api/probe?dry_run=1').send({ source_catalog: 'sales' }).expect(200);
  expect(res.body).toEqual({ body: { source_catalog: 'sales', clone_type: 'DEEP' }, query: { dry_run: true } });
});

test('a bad body gets 400 naming each field', async () => {
  const res = await request(app()).post('/api/probe').send({ clone_type: 'MEDIUM' }).expect(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual([
    'body.source_catalog',
    'body.clone_type',
  ]);
  expect(res.body.error.message).toContain('body.source_catalog');
  expect(res.body.request_id).toBe(res.headers['x-request-id']);
});

test('a string no column can store (NUL, a lone surrogate), as a value or a key, is a 400 naming where it is', async () => {
  // Sent as raw JSON text: \u escapes are how a client sends them (found by schemathesis: a 500 from the store).
  const res = await request(app())
    .post('/api/probe?dry_run=1')
    .set('Content-Type', 'application/json')
    .send('{"source_catalog":"a\\u0000b","extra":{"k\\ud94a":1},"list":["ok","\\udc00"]}')
    .expect(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual([
    'body.source_catalog',
    'body.extra.k\ud94a',
    'body.list.1',
  ]);
  expect(res.body.error.message).toContain('U+0000 (NUL) or an unpaired UTF-16 surrogate');
  // A surrogate pair (an emoji) is an ordinary character.
  await request(app()).post('/api/probe').send({ source_catalog: 'sales 🦆' }).expect(200);
});

test('malformed JSON gets 400 and an oversized body 413, both in the error body shape', async () => {
  const bad = await request(app()).post('/api/probe').set('Content-Type', 'application/json').send('{"a":').expect(400);
  expect(bad.body.error.code).toBe('INVALID_JSON');
  const big = await request(app(undefined, '1kb'))
    .post('/api/probe')
    .send({ source_catalog: 'x'.repeat(2048) })
    .expect(413);
  expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
});

test('an unknown route gets a 404 JSON body that names it', async () => {
  const res = await request(app()).get('/api/nowhere').set('X-Request-Id', 'req-123').expect(404);
  expect(res.body).toEqual({
    error: { code: 'NOT_FOUND', message: 'No route for GET /api/nowhere', details: [] },
    request_id: 'req-123',
  });
});

test('platform errors map to 404, 409 and 403', async () => {
  const a = app();
  expect((await request(a).get('/api/probe/missing').expect(404)).body.error).toMatchObject({
    code: 'NOT_FOUND',
    message: 'Catalog not found: nope',
  });
  expect((await request(a).get('/api/probe/exists').expect(409)).body.error.code).toBe('ALREADY_EXISTS');
  expect((await request(a).get('/api/probe/denied').expect(403)).body.error.code).toBe('PERMISSION_DENIED');
});

test('an unexpected error is a 500 whose request id finds the logged cause; the detail is not sent', async () => {
  const logs = new LogCapture();
  const res = await request(app(logs)).get('/api/probe/crash').expect(500);
  expect(res.body.error.code).toBe('INTERNAL_ERROR');
  expect(JSON.stringify(res.body)).not.toContain('secret internal detail');
  const logged = logs.lines.map((l) => JSON.parse(l) as { request_id?: string; err?: { message: string } });
  expect(logged.find((l) => l.request_id === res.body.request_id)?.err?.message).toBe('secret internal detail');
});

test('the OpenAPI document is generated from the zod schemas', async () => {
  const res = await request(app()).get('/api/openapi.json').expect(200);
  expect(res.body.openapi).toBe('3.1.0');
  expect(res.body.paths['/api/health'].get.responses['200']).toBeDefined();
  expect(res.body.components.schemas.Health.properties.runtime).toBeDefined();
  expect(res.body.components.schemas.ErrorBody.properties.request_id).toBeDefined();
});
