import { snapshotView } from '../../activities/clone/logic/snapshot-view';
import { captureSnapshot } from '../../api/clone/snapshot-capture';
import { deleteSourceSnapshot, getSourceSnapshot, listSourceSnapshots } from '../../store/clone/source-snapshots';
import { createHarness, type Harness } from '../helpers/harness';
import { seedSafetyCatalogs } from './fixtures/safety-seed';
import { rowsOf } from './safety-helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('snapshot');
});
afterAll(async () => h?.teardown());

test('a snapshot records every table version; a clone from it yields the captured rows after the source changed', async () => {
  const root = h.newRoot();
  const ws = h.open(root);
  await seedSafetyCatalogs(ws);
  const people = { catalog: 'prod', schema: 'hr', name: 'people' };
  const captured = await rowsOf(ws, people);
  const snap = await captureSnapshot(h.store.db, ws, { source_catalog: 'prod', name: 'before-migration' });
  const view = snapshotView(snap);
  expect(view).toMatchObject({ name: 'before-migration', source_catalog: 'prod', table_count: 3 });
  expect(view.tables).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ schema: 'hr', table: 'people', version: (await ws.describeTable(people)).version }),
    ]),
  );

  // The source moves on after the capture.
  await ws.insertRows(people, [{ id: 3, name: 'barbara' }]);
  await ws.deleteWhere(people, 'id = 1');
  await ws.deleteWhere({ catalog: 'prod', schema: 'sales', name: 'orders' }, 'id > 10');

  const input = h.jobInput(root, {
    source_snapshot_id: snap.id,
    destination_catalog: 'restored',
    validate_after_clone: true,
  });
  const tq = h.newTaskQueue();
  const summary = await h.withWorker(() => h.run(input, tq), { taskQueue: tq });
  expect(summary.tables_cloned).toBe(3);
  expect(await rowsOf(ws, { catalog: 'restored', schema: 'hr', name: 'people' })).toEqual(captured);
  expect((await ws.tableStats({ catalog: 'restored', schema: 'sales', name: 'orders' })).rowCount).toBe(20);
  // Validation compares against the captured versions, not the moved-on source.
  expect(summary.validation).toMatchObject({ passed: true, matched: 3 });
});

test('clones use the captured versions, not the capture time (a late captured_at must not let later commits in)', async () => {
  const root = h.newRoot();
  const ws = h.open(root);
  await seedSafetyCatalogs(ws);
  const people = { catalog: 'prod', schema: 'hr', name: 'people' };
  const captured = await rowsOf(ws, people);
  // captured_at an hour late (slow capture, skewed clock): commits after the capture are older than it.
  const snap = await captureSnapshot(h.store.db, ws, { source_catalog: 'prod' }, new Date(Date.now() + 3_600_000));
  await ws.insertRows(people, [{ id: 9, name: 'late' }]);
  const input = h.jobInput(root, {
    source_snapshot_id: snap.id,
    destination_catalog: 'restored',
    include_schemas: ['hr'],
  });
  const tq = h.newTaskQueue();
  await h.withWorker(() => h.run(input, tq), { taskQueue: tq });
  expect(await rowsOf(ws, { catalog: 'restored', schema: 'hr', name: 'people' })).toEqual(captured);
});

test('a table created after the capture fails with a message naming the snapshot', async () => {
  const root = h.newRoot();
  const ws = h.open(root);
  await seedSafetyCatalogs(ws);
  const snap = await captureSnapshot(h.store.db, ws, { source_catalog: 'prod' });
  await ws.createTable({
    ref: { catalog: 'prod', schema: 'hr', name: 'later' },
    columns: [{ name: 'k', type: 'int' }],
  });
  const input = h.jobInput(root, {
    source_snapshot_id: snap.id,
    destination_catalog: 'restored',
    include_schemas: ['hr'],
  });
  const tq = h.newTaskQueue();
  const summary = await h.withWorker(() => h.run(input, tq), { taskQueue: tq });
  expect(summary.tables_cloned).toBe(1);
  expect(summary.tables_failed).toBe(1);
});

test('snapshots are listed newest first, read back and deleted', async () => {
  const root = h.newRoot();
  const ws = h.open(root);
  await seedSafetyCatalogs(ws);
  const a = await captureSnapshot(
    h.store.db,
    ws,
    { source_catalog: 'prod', name: 'a' },
    new Date('2026-01-01T00:00:00Z'),
  );
  const b = await captureSnapshot(
    h.store.db,
    ws,
    { source_catalog: 'prod', name: 'b' },
    new Date('2026-02-01T00:00:00Z'),
  );
  const names = (await listSourceSnapshots(h.store.db, { sourceCatalog: 'prod' })).map((s) => s.name);
  expect(names.indexOf('b')).toBeLessThan(names.indexOf('a'));
  expect((await getSourceSnapshot(h.store.db, a.id))!.tables).toHaveLength(3);
  expect(await deleteSourceSnapshot(h.store.db, b.id)).toBe(true);
  expect(await deleteSourceSnapshot(h.store.db, b.id)).toBe(false);
  expect(await getSourceSnapshot(h.store.db, b.id)).toBeUndefined();
});
