import { randomBytes } from 'node:crypto';
import { DrizzleSessionStore } from '../../store/auth/session-store';
import type { Store } from '../../store/db';
import { targetCipher } from '../../store/targets/cipher';
import { createTestStore } from '../helpers/db';

let store: Store;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(async () => {
  await store?.close();
});

const HOUR = 3_600_000;
const cookie = { originalMaxAge: 12 * HOUR, httpOnly: true, path: '/' };

test('a session ends 12 h after its last use, and 7 days after sign-in however often it is used', async () => {
  let now = new Date('2030-01-01T00:00:00Z');
  const sessions = new DrizzleSessionStore(
    store.db,
    targetCipher(randomBytes(32)),
    { idleMs: 12 * HOUR, absoluteMs: 7 * 24 * HOUR },
    () => now,
  );
  const get = (sid: string) =>
    new Promise((resolve, reject) => sessions.get(sid, (e, s) => (e ? reject(e) : resolve(s))));
  const set = (sid: string) =>
    new Promise<void>((resolve, reject) => sessions.set(sid, { cookie } as never, (e) => (e ? reject(e) : resolve())));
  const touch = (sid: string) =>
    new Promise<void>((resolve, reject) =>
      sessions.touch(sid, { cookie } as never, (e) => (e ? reject(e) : resolve())),
    );

  await set('idle');
  now = new Date(now.getTime() + 11 * HOUR);
  expect(await get('idle')).not.toBeNull();
  await touch('idle'); // used: 12 more hours
  now = new Date(now.getTime() + 11 * HOUR);
  expect(await get('idle')).not.toBeNull();
  now = new Date(now.getTime() + 13 * HOUR);
  expect(await get('idle')).toBeNull();

  await set('busy');
  for (let h = 0; h < 7 * 24 - 6; h += 6) {
    now = new Date(now.getTime() + 6 * HOUR);
    await touch('busy');
  }
  expect(await get('busy')).not.toBeNull();
  now = new Date(now.getTime() + 7 * HOUR);
  await touch('busy');
  expect(await get('busy')).toBeNull();
});

test('workspace headers with an http host are a 400 naming X-Databricks-Host (no token sent in the clear)', async () => {
  const { requestCredentials } = await import('../../api/middleware/workspaces');
  expect(() =>
    requestCredentials({ headers: { 'x-databricks-host': 'http://evil.example', 'x-databricks-token': 't' } } as never),
  ).toThrow(
    expect.objectContaining({
      status: 400,
      details: [{ path: 'headers.x-databricks-host', message: 'expected https://<workspace-host>' }],
    }),
  );
});
