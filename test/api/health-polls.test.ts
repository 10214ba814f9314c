import type { TestWorkflowEnvironment } from '@temporalio/testing';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { TemporalHandle } from '../../api/deps';
import { HEALTH_CHECK_REUSE_MS } from '../../api/health/routes';
import { createTestStore } from '../helpers/db';
import { eventually } from '../helpers/eventually';
import { connectTestEnv } from '../helpers/temporal';
import { testAppDeps } from './deps';

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await connectTestEnv();
});
afterAll(async () => {
  await env?.teardown();
});

/** The real Temporal connection, counting the health check's GetSystemInfo calls. */
function countingTemporal(): { handle: TemporalHandle; calls: () => number } {
  let calls = 0;
  const service = env.connection.workflowService;
  const workflowService = new Proxy(service, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== 'getSystemInfo' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const connection = Object.assign(Object.create(env.connection) as typeof env.connection, { workflowService });
  return { handle: { client: env.client, connection, address: env.connection.options.address }, calls: () => calls };
}

test('a burst of health polls asks Temporal once and every poll answers ok', async () => {
  const store = await createTestStore();
  try {
    const temporal = countingTemporal();
    const app = createApp(testAppDeps({ store, temporal: temporal.handle }));
    const answers = await Promise.all(Array.from({ length: 40 }, () => request(app).get('/api/health')));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('ok');
    }
    expect(temporal.calls()).toBe(1);
  } finally {
    await store.close();
  }
});

test('health reports the store gone within about a second of it going away', async () => {
  const store = await createTestStore('pglite');
  const app = createApp(testAppDeps({ store, temporal: countingTemporal().handle }));
  expect((await request(app).get('/api/health').expect(200)).body.status).toBe('ok');
  await store.close();
  const closedAt = Date.now();
  await eventually(async () => (await request(app).get('/api/health')).body.runtime.store.reachable === false, {
    what: 'health to report the closed store as unreachable',
    timeoutMs: HEALTH_CHECK_REUSE_MS + 2000,
  });
  expect(Date.now() - closedAt).toBeLessThan(HEALTH_CHECK_REUSE_MS + 1000);
});
