import { randomBytes } from 'node:crypto';
import type { Store } from '../../store/db';
import { addNotification, markAllRead, recentNotifications, unreadCount } from '../../store/notifications/repo';
import {
  createRollbackLog,
  getRollbackLog,
  recordRollbackEntries,
  rollbackLogsForJob,
  setRollbackStatus,
} from '../../store/clone/rollback-logs';
import { appendRunLog, readRunLog } from '../../store/jobs/run-logs';
import { targets } from '../../store/schema';
import { targetCipher } from '../../store/targets/cipher';
import { deleteTarget, getTarget, getTargetWithCredentials, listTargets, saveTarget } from '../../store/targets/repo';
import { createTestStore, storeBackends } from '../helpers/db';

describe.each(storeBackends())('logs, rollback, notifications and targets on %s', (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore(backend);
  });
  afterAll(async () => {
    await store?.close();
  });

  test('a run log keeps line order and can be read from the last line seen', async () => {
    await appendRunLog(store.db, 'job-a', [{ message: 'one' }, { message: 'two', level: 'warn', data: { n: 2 } }]);
    await appendRunLog(store.db, 'job-b', [{ message: 'other job' }]);
    await appendRunLog(store.db, 'job-a', [{ message: 'three' }]);
    const all = await readRunLog(store.db, 'job-a');
    expect(all.map((l) => [l.message, l.level])).toEqual([
      ['one', 'info'],
      ['two', 'warn'],
      ['three', 'info'],
    ]);
    const newer = await readRunLog(store.db, 'job-a', { afterId: all[1].id });
    expect(newer.map((l) => l.message)).toEqual(['three']);
  });

  test('a rollback log keeps the first recorded state of each object and its order', async () => {
    const log = await createRollbackLog(store.db, { jobId: 'job-r', destinationCatalog: 'dst' });
    await recordRollbackEntries(store.db, log.id, [
      { objectType: 'SCHEMA', fqn: 'dst.s', existed: false, action: 'create' },
      { objectType: 'TABLE', fqn: 'dst.s.t', existed: true, version: 4, action: 'replace' },
    ]);
    // A retried activity records the same table again after it changed: the pre-change version must win.
    await recordRollbackEntries(store.db, log.id, [
      { objectType: 'TABLE', fqn: 'dst.s.t', existed: true, version: 5, action: 'replace' },
      { objectType: 'TABLE', fqn: 'dst.s.u', existed: false, action: 'create' },
    ]);
    const read = await getRollbackLog(store.db, log.id);
    expect(read!.entries.map((e) => [e.fqn, e.version])).toEqual([
      ['dst.s', null],
      ['dst.s.t', 4],
      ['dst.s.u', null],
    ]);
    await setRollbackStatus(store.db, log.id, 'rolled_back');
    const [after] = await rollbackLogsForJob(store.db, 'job-r');
    expect(after.status).toBe('rolled_back');
    expect(after.completedAt).toBeInstanceOf(Date);
    expect(await getRollbackLog(store.db, '00000000-0000-0000-0000-000000000000')).toBeUndefined();
  });

  test('notifications count unread until marked read', async () => {
    await addNotification(store.db, { type: 'success', message: 'clone done', status: 'completed', jobId: 'j1' });
    await addNotification(store.db, { type: 'failure', message: 'clone failed', status: 'failed', jobId: 'j2' });
    expect(await unreadCount(store.db)).toBe(2);
    expect(await markAllRead(store.db)).toBe(2);
    expect(await unreadCount(store.db)).toBe(0);
    expect((await recentNotifications(store.db)).map((n) => n.jobId).sort()).toEqual(['j1', 'j2']);
  });

  test('saved targets never show credentials in the listing and upsert by name', async () => {
    const target = {
      name: 'prod-west',
      host: 'https://adb-1.azuredatabricks.net',
      authMethod: 'token',
      credentials: { token: 'dapi-secret' },
      warehouseId: 'wh1',
    };
    const cipher = targetCipher(randomBytes(32));
    await saveTarget(store.db, cipher, target);
    const updated = await saveTarget(store.db, cipher, { ...target, warehouseId: 'wh2', keepShare: true });
    expect(updated).toMatchObject({ warehouseId: 'wh2', keepShare: true, syncMode: 'snapshot_once' });
    const listed = await listTargets(store.db);
    expect(JSON.stringify(listed)).not.toContain('dapi-secret');
    expect(listed[0].credentialKeys).toEqual(['token']);
    expect((await getTargetWithCredentials(store.db, cipher, 'prod-west'))!.credentials.token).toBe('dapi-secret');
    // At rest the row holds an AES-256-GCM envelope, not the token.
    const [row] = await store.db.select().from(targets);
    expect(JSON.stringify(row)).not.toContain('dapi-secret');
    expect(row.credentials).toMatchObject({ alg: 'aes-256-gcm', keys: 'token' });
    expect(await deleteTarget(store.db, 'prod-west')).toBe(true);
    expect(await getTarget(store.db, 'prod-west')).toBeUndefined();
    expect(await deleteTarget(store.db, 'prod-west')).toBe(false);
  });
});
