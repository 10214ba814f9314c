import request from 'supertest';
import { createApp } from '../../api/app';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';
import { ROLES } from '../../schemas/governance';

/** The built-in configuration with one key per role, `key-of-the-<role>`. */
function depsWithKeys(store: Store) {
  const deps = testAppDeps({ store });
  const keys = ROLES.map((role) => ({ name: `${role}-bot`, key: `key-of-the-${role}`, key_env: null, role }));
  deps.config = { ...deps.config, api_server: { ...deps.config.api_server, keys } };
  return deps;
}

let store: Store;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(async () => store?.close());

describe('the web console shell calls', () => {
  it('GET /api/web/operations lists exactly the operations of the OpenAPI document with their roles, without a key', async () => {
    const app = createApp(depsWithKeys(store));
    const doc = (await request(app).get('/api/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { 'x-required-role'?: string }>>;
    };
    const res = await request(app).get('/api/web/operations').expect(200);
    const expected = Object.entries(doc.paths)
      .flatMap(([p, ops]) => Object.entries(ops).map(([m, op]) => [`${m} ${p}`, op['x-required-role'] ?? null]))
      .sort(([a], [b]) => String(a).localeCompare(String(b)));
    expect(res.body.operations.map((o: { operation: string; role: string | null }) => [o.operation, o.role])).toEqual(
      expected,
    );
    expect(res.body.operations).toContainEqual({ operation: 'post /api/clone', role: 'editor' });
    expect(res.body.operations).toContainEqual({ operation: 'get /api/web/operations', role: null });
    // A few KB where the document is megabytes: the reason the console reads this first.
    expect(res.text.length * 20).toBeLessThan(JSON.stringify(doc).length);
  });

  it('GET /api/auth/me names the key and its role; without keys everyone is the anonymous admin', async () => {
    const app = createApp(depsWithKeys(store));
    const me = await request(app).get('/api/auth/me').set('Authorization', 'Bearer key-of-the-viewer').expect(200);
    expect(me.body).toEqual({ name: 'viewer-bot', role: 'viewer', authentication: 'on' });
    const none = await request(app).get('/api/auth/me').expect(401);
    expect(none.body.error.code).toBe('UNAUTHORIZED');
    const open = await request(createApp(testAppDeps({ store })))
      .get('/api/auth/me')
      .expect(200);
    expect(open.body).toEqual({ name: 'anonymous', role: 'admin', authentication: 'off' });
  });
});
