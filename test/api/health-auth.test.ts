import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { Store } from '../../store/db';
import { createTestStore } from '../helpers/db';
import { connectTestEnv } from '../helpers/temporal';
import { testAppDeps } from './deps';

let store: Store;
let env: TestWorkflowEnvironment;
beforeAll(async () => {
  [store, env] = await Promise.all([createTestStore(), connectTestEnv()]);
});
afterAll(async () => {
  await Promise.all([store?.close(), env?.teardown()]);
});

const temporal = () => ({ client: env.client, connection: env.connection, address: env.connection.options.address });

test('health reports the service, its versions, and Temporal and the store as reachable', async () => {
  const app = createApp(testAppDeps({ store, temporal: temporal() }));
  const res = await request(app).get('/api/health').expect(200);
  const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string };
  expect(res.body).toMatchObject({
    status: 'ok',
    service: 'lakeward',
    runtime: {
      version: pkg.version,
      node: process.version,
      temporal: { reachable: true, namespace: 'default', task_queue: 'lakeward' },
      store: { reachable: true, driver: store.driver },
    },
  });
  expect(res.body.runtime.temporal.detail).toContain(process.env.TEMPORAL_TEST_ADDRESS);
});

test('health says degraded when Temporal is not connected or the store is closed', async () => {
  const closed = await createTestStore('pglite');
  await closed.close();
  const res = await request(createApp(testAppDeps({ store: closed })))
    .get('/api/health')
    .expect(200);
  expect(res.body.status).toBe('degraded');
  expect(res.body.runtime.temporal.reachable).toBe(false);
  expect(res.body.runtime.store.reachable).toBe(false);
});

describe('with an API key configured', () => {
  const key = 'k3y-for-tests';
  const app = () => createApp(testAppDeps({ store, temporal: temporal(), flags: { apiKey: key } }));

  test('health answers 200 without a key, and its body carries no secret', async () => {
    for (const path of ['/api/health', '/api/health/', '/API/Health']) {
      const res = await request(app()).get(path).expect(200);
      expect(res.body).toMatchObject({ status: 'ok', service: 'lakeward' });
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(key);
      expect(text).not.toMatch(/password|token|secret|:[^/@:]+@/i);
    }
    await request(app()).head('/api/health').expect(200);
  });

  test('only health is open: other routes, and health with other methods, still need the key', async () => {
    await request(app()).get('/api/templates').expect(401);
    await request(app()).get('/api/health-x').expect(401);
    await request(app()).get('/api/health/../templates').expect(401);
    await request(app()).post('/api/health').expect(401);
  });

  test('a request without a key gets 401 with the error body and a hint', async () => {
    const res = await request(app()).get('/api/templates').expect(401);
    expect(res.body).toEqual({
      error: {
        code: 'UNAUTHORIZED',
        message: expect.stringContaining('Authorization: Bearer'),
        details: [{ path: 'headers.authorization', message: 'required' }],
      },
      request_id: res.headers['x-request-id'],
    });
    expect(res.headers['www-authenticate']).toContain('Bearer');
  });

  test('a wrong key gets 401, the right key 200', async () => {
    const wrong = await request(app()).get('/api/templates').set('Authorization', `Bearer ${key}x`).expect(401);
    expect(wrong.body.error.message).toBe('Invalid API key');
    await request(app()).get('/api/templates').set('Authorization', `Bearer ${key}`).expect(200);
  });

  test('the key may come from LAKEWARD_API_KEY or a ${VAR} reference', async () => {
    const fromEnv = createApp(testAppDeps({ store, env: { LAKEWARD_API_KEY: 'env-key' } }));
    await request(fromEnv).get('/api/templates').expect(401);
    await request(fromEnv).get('/api/templates').set('Authorization', 'Bearer env-key').expect(200);
  });

  test('CORS preflight from the web UI origin succeeds without a key', async () => {
    const res = await request(app())
      .options('/api/templates')
      .set('Origin', 'http://localhost:8000')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:8000');
  });
});

test('without a key configured, authentication is off', async () => {
  await request(createApp(testAppDeps({ store })))
    .get('/api/health')
    .expect(200);
});
