import type { Store } from '../../store/db';
import { getJobTable, listJobTables, tableStatesForSchema } from '../../store/clone/clone-state';
import { CloneWriter, PendingWrites, WRITE_BEHIND_MS } from '../../store/clone/clone-writes';
import { readRunLog } from '../../store/jobs/run-logs';
import { createTestStore, storeBackends } from '../helpers/db';

const key = (jobId: string, tableName: string) => ({ jobId, target: 'local', schemaName: 's', tableName });
const cloned = (jobId: string, tableName: string, bytes: number) => ({
  ...key(jobId, tableName),
  status: 'cloned',
  format: 'DELTA',
  bytesCopied: bytes,
  filesCopied: 1,
  sourceVersion: 3,
  attempts: 1,
  error: null,
  result: { bytes },
});
const state = (tableName: string, sourceVersion: number, jobId: string) => ({
  destWorkspace: 'ws',
  destCatalog: 'dst',
  schemaName: 's',
  tableName,
  sourceWorkspace: 'ws',
  sourceCatalog: 'src',
  sourceVersion,
  jobId,
});

describe.each(storeBackends())('group-committed clone writes on %s', (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore(backend);
  });
  afterAll(async () => {
    await store?.close();
  });

  test('concurrent writers each get their rows stored, log lines in the order they were written', async () => {
    const w = new CloneWriter(store.db);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        w.write({
          jobTables: [cloned('job-g', `t${i}`, i)],
          tableStates: [state(`t${i}`, i, 'job-g')],
          logs: [{ jobId: 'job-g', lines: [{ message: `started t${i}` }, { message: `finished t${i}` }] }],
        }),
      ),
    );
    const tables = await listJobTables(store.db, 'job-g');
    expect(tables).toHaveLength(20);
    expect(tables.find((t) => t.tableName === 't7')).toMatchObject({ status: 'cloned', bytesCopied: 7 });
    const states = await tableStatesForSchema(store.db, { destWorkspace: 'ws', destCatalog: 'dst', schemaName: 's' });
    expect(states.get('t19')?.sourceVersion).toBe(19);
    const lines = (await readRunLog(store.db, 'job-g')).map((l) => l.message);
    expect(lines).toEqual(Array.from({ length: 20 }, (_, i) => [`started t${i}`, `finished t${i}`]).flat());
  });

  test('the later write of the same table wins, in one flush and across flushes', async () => {
    const w = new CloneWriter(store.db);
    await Promise.all([
      w.write({ jobTables: [{ ...cloned('job-k', 'a', 1), status: 'failed', error: 'boom' }] }),
      w.write({ jobTables: [cloned('job-k', 'a', 2)], tableStates: [state('a', 1, 'job-k')] }),
      w.write({ tableStates: [state('a', 2, 'job-k')] }),
    ]);
    expect(await getJobTable(store.db, key('job-k', 'a'))).toMatchObject({ status: 'cloned', bytesCopied: 2 });
    await w.write({ jobTables: [{ ...cloned('job-k', 'a', 0), status: 'failed', error: 'later' }] });
    expect(await getJobTable(store.db, key('job-k', 'a'))).toMatchObject({ status: 'failed', error: 'later' });
    const states = await tableStatesForSchema(store.db, { destWorkspace: 'ws', destCatalog: 'dst', schemaName: 's' });
    expect(states.get('a')?.sourceVersion).toBe(2);
  });

  test('write-behind rows show up on their own within the delay, and settle() waits for the rest', async () => {
    const w = new CloneWriter(store.db);
    const pending = new PendingWrites(w);
    pending.add({ logs: [{ jobId: 'job-b', lines: [{ message: 'first' }] }] });
    expect(await readRunLog(store.db, 'job-b')).toHaveLength(0);
    // Live progress: nobody settles, yet the line is stored shortly after the write-behind delay.
    const deadline = Date.now() + WRITE_BEHIND_MS + 2000;
    while ((await readRunLog(store.db, 'job-b')).length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect((await readRunLog(store.db, 'job-b')).map((l) => l.message)).toEqual(['first']);

    pending.add({ jobTables: [cloned('job-b', 'x', 5)] });
    pending.add({ logs: [{ jobId: 'job-b', lines: [{ message: 'second' }] }] });
    await pending.settle();
    expect(await getJobTable(store.db, key('job-b', 'x'))).toMatchObject({ status: 'cloned' });
    expect((await readRunLog(store.db, 'job-b')).map((l) => l.message)).toEqual(['first', 'second']);
  });

  test('a failed flush rejects its writers, settle() throws it, and the writer keeps working', async () => {
    const w = new CloneWriter(store.db);
    const pending = new PendingWrites(w);
    // status is NOT NULL: the store refuses the row.
    pending.add({ jobTables: [{ ...cloned('job-f', 'bad', 1), status: null as unknown as string }] });
    await expect(pending.settle()).rejects.toThrow();
    await expect(w.write({ jobTables: [cloned('job-f', 'good', 1)] })).resolves.toBeUndefined();
    expect((await listJobTables(store.db, 'job-f')).map((t) => t.tableName)).toEqual(['good']);
    await expect(pending.settle()).resolves.toBeUndefined();
  });
});
