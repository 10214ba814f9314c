import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { ROLES, type Role } from '../../schemas/governance';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

/** One key per role; the test calls every route with each. */
const KEYS = Object.fromEntries(ROLES.map((role) => [role, `key-of-the-${role}-0123456789`])) as Record<Role, string>;

export function depsWithKeys(store: Store, extra: Partial<AppDeps['config']['api_server']> = {}): AppDeps {
  const deps = testAppDeps({ store });
  const keys = ROLES.map((role) => ({ name: `${role}-bot`, key: KEYS[role], key_env: null, role }));
  deps.config = { ...deps.config, api_server: { ...deps.config.api_server, keys, ...extra } };
  return deps;
}

let store: Store;
let app: Express;
let doc: { paths: Record<string, Record<string, { 'x-required-role'?: Role; security?: unknown[] }>> };
beforeAll(async () => {
  store = await createTestStore();
  app = createApp(depsWithKeys(store));
  doc = (await request(app).get('/api/openapi.json').expect(200)).body;
});
afterAll(async () => store?.close());

interface Op {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  role: Role | null;
}

/** Every documented operation with its required role (null: open without a key), path parameters filled in. */
function operations(): Op[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method as Op['method'],
      path: path.replace(/\{[^}]+\}/g, 'no-such-thing-1'),
      role: op['x-required-role'] ?? null,
    })),
  );
}

const call = (op: Op, key?: string) => {
  const req = request(app)[op.method](op.path);
  return key ? req.set('Authorization', `Bearer ${key}`) : req;
};
const forbidden = (res: request.Response) => res.status === 403 && res.body?.error?.code === 'FORBIDDEN';

test('the document names a role for every route but health, the API document and signing in, and a 403 beside the 401', () => {
  const ops = operations();
  expect(ops.length).toBeGreaterThan(40);
  const open = ops.filter((o) => o.role === null).map((o) => `${o.method} ${o.path}`);
  // Besides health and the document: signing in and out of a workspace (a browser has no key before it).
  const signIn =
    /^(get|post) \/api\/auth\/(login|logout|status|service-principal|auto-login|oauth-login|oauth-callback)$/;
  for (const o of open)
    expect(o).toMatch(signIn.test(o) ? signIn : /^get \/api\/(health|docs|openapi|web\/operations)/);
  for (const [path, byMethod] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(byMethod)) {
      const o = op as { 'x-required-role'?: Role; responses: Record<string, unknown> };
      if (o['x-required-role']) expect({ path, method, has403: '403' in o.responses }).toMatchObject({ has403: true });
    }
});

test('every route: a key below its role gets 403 naming the role, its role gets past auth, no key gets 401', async () => {
  const failures: string[] = [];
  for (const op of operations()) {
    const label = `${op.method.toUpperCase()} ${op.path} (${op.role ?? 'open'})`;
    if (op.role === null) {
      const res = await call(op);
      if (res.status === 401 || res.status === 403) failures.push(`${label}: open route answered ${res.status}`);
      continue;
    }
    const anonymous = await call(op);
    if (anonymous.status !== 401) failures.push(`${label}: without a key ${anonymous.status}, expected 401`);
    const at = ROLES.indexOf(op.role);
    if (at > 0) {
      const below = await call(op, KEYS[ROLES[at - 1]]);
      if (!forbidden(below) || !String(below.body.error.message).includes(`needs the ${op.role} role`))
        failures.push(`${label}: ${ROLES[at - 1]} got ${below.status} ${JSON.stringify(below.body)}`);
    }
    const right = await call(op, KEYS[op.role]);
    if (right.status === 401 || forbidden(right)) failures.push(`${label}: its own role got ${right.status}`);
  }
  expect(failures).toEqual([]);
});

test('the roles the issue names: reads viewer, job starts editor, deletes and rollback admin, cancel editor', () => {
  const role = (method: string, path: string) => doc.paths[path]?.[method]?.['x-required-role'];
  expect(role('get', '/api/jobs')).toBe('viewer');
  expect(role('post', '/api/clone')).toBe('editor');
  expect(role('delete', '/api/jobs/{jobId}')).toBe('editor'); // cancels, destroys nothing
  expect(role('post', '/api/rollback')).toBe('admin');
  expect(role('post', '/api/clone-provenance/verify')).toBe('viewer');
  expect(role('delete', '/api/governance/dqx/checks/{id}')).toBe('admin');
  expect(role('post', '/api/governance/dqx/checks/delete-bulk')).toBe('admin');
  expect(role('post', '/api/profile-results')).toBe('viewer');
});

test('without keys authentication is off: every caller is anonymous with the admin role', async () => {
  const open = createApp(testAppDeps({ store }));
  await request(open).post('/api/cache/clear').expect(200);
  await request(open)
    .post('/api/governance/dqx/checks/delete-bulk')
    .send({ ids: ['x'] })
    .expect((r) => {
      expect(r.status).not.toBe(401);
      expect(r.status).not.toBe(403);
    });
});

test('the single api_key still works and means admin', async () => {
  const single = createApp(testAppDeps({ store, flags: { apiKey: 'single-admin-key' } }));
  const res = await request(single)
    .post('/api/governance/dqx/checks/delete-bulk')
    .set('Authorization', 'Bearer single-admin-key')
    .send({ ids: ['nope'] });
  expect([401, 403]).not.toContain(res.status);
});
