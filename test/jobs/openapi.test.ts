import request from 'supertest';
import { createApp } from '../../api/app';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

let store: Store;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(async () => store?.close());

test('the OpenAPI document lists the job, audit, notification and cache endpoints', async () => {
  const doc = (
    await request(createApp(testAppDeps({ store })))
      .get('/api/openapi.json')
      .expect(200)
  ).body;
  for (const p of [
    '/api/clone',
    '/api/clone/jobs',
    '/api/clone/{jobId}',
    '/api/clone/{jobId}/cancel',
    '/api/clone/{jobId}/logs',
    '/api/audit',
    '/api/audit/{jobId}/logs',
    '/api/notifications',
    '/api/cache/stats',
    '/api/cache/clear',
    '/api/cache/invalidate',
  ]) {
    expect(doc.paths[p]).toBeDefined();
  }
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
