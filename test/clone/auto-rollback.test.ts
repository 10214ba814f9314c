import { createHarness, type Harness } from '../helpers/harness';
import { seedSafetyCatalogs } from './fixtures/safety-seed';
import { getRollbackLog } from '../../store/clone/rollback-logs';
import { listRollbackLogsWithEntries } from '../../store/clone/safety-rollback';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('auto-rb');
});
afterAll(async () => h?.teardown());

const names = async (root: string) => {
  const ws = h.open(root);
  const out: string[] = [];
  for (const c of (await ws.listCatalogs()).filter((x) => x.name === 'dev')) {
    for (const s of await ws.listSchemas(c.name)) {
      out.push(`${s.name}/`);
      for (const t of await ws.listTables(c.name, s.name)) out.push(`${s.name}.${t.name}`);
      for (const v of await ws.listViews(c.name, s.name)) out.push(`${s.name}.${v.name} (view)`);
      for (const f of await ws.listFunctions(c.name, s.name)) out.push(`${s.name}.${f.name} (function)`);
      for (const v of await ws.listVolumes(c.name, s.name)) out.push(`${s.name}.${v.name} (volume)`);
    }
  }
  return out.sort();
};

test('a destination table altered between clone and validation triggers auto rollback to the recorded state', async () => {
  const root = h.newRoot();
  const ws = h.open(root);
  await seedSafetyCatalogs(ws);
  const devOrders = { catalog: 'dev', schema: 'sales', name: 'orders' };
  const before = await names(root);
  const ordersVersion = (await ws.describeTable(devOrders)).version!;
  const ordersChecksum = await ws.tableChecksum(devOrders);

  const input = h.jobInput(root, {
    validate_after_clone: true,
    validate_checksum: true,
    auto_rollback: true,
    rollback_threshold: 10,
  });
  const tq = h.newTaskQueue();
  const summary = await h.withWorker(() => h.run(input, tq), {
    taskQueue: tq,
    activities: (acts) => ({
      // Someone writes to the destination after the clone, before validation reads it.
      async postCloneChecks(ctx) {
        await h.open(root).deleteWhere({ catalog: 'dev', schema: 'sales', name: 'customers' }, 'id = 1');
        return acts.postCloneChecks(ctx);
      },
    }),
  });

  expect(summary.tables_cloned).toBe(3);
  expect(summary.validation).toMatchObject({
    passed: false,
    matched: 2,
    mismatched: 1,
    mismatched_tables: ['sales.customers'],
  });
  expect(summary.auto_rollback).toMatchObject({
    triggered: true,
    threshold_pct: 10,
    result: { status: 'rolled_back', restored: 1, failed: 0 },
  });
  expect(summary.status).toBe('failed');

  // Every destination table that existed is at exactly its recorded version; only what the job created is gone.
  expect(await ws.tableChecksum(devOrders)).toBe(ordersChecksum);
  expect(await ws.tableChecksum(devOrders)).toBe(await ws.tableChecksum(devOrders, { version: ordersVersion }));
  expect(await names(root)).toEqual(before);
  expect((await ws.listCatalogs()).map((c) => c.name)).toContain('dev');

  const [listing] = await listRollbackLogsWithEntries(h.store.db, { jobId: input.jobId });
  expect(listing.log.status).toBe('rolled_back');
  const log = await getRollbackLog(h.store.db, listing.log.id);
  expect(
    log!.entries
      .filter((e) => e.existed)
      .map((e) => `${e.objectType}:${e.fqn}`)
      .sort(),
  ).toEqual(['schema:dev.sales', 'table:dev.sales.orders']);
  expect(
    log!.entries
      .filter((e) => !e.existed)
      .map((e) => `${e.objectType}:${e.fqn}`)
      .sort(),
  ).toEqual([
    'function:dev.hr.shout',
    'schema:dev.hr',
    'table:dev.hr.people',
    'table:dev.sales.customers',
    'view:dev.hr.v_people',
    'volume:dev.hr.docs',
  ]);
});

test('a clean validation keeps the clone and reports every table matched', async () => {
  const root = h.newRoot();
  await seedSafetyCatalogs(h.open(root));
  const input = h.jobInput(root, { validate_after_clone: true, auto_rollback: true, rollback_threshold: 0 });
  const tq = h.newTaskQueue();
  const summary = await h.withWorker(() => h.run(input, tq), { taskQueue: tq });
  expect(summary.status).toBe('completed');
  expect(summary.validation).toMatchObject({ passed: true, matched: 3, mismatched: 0 });
  expect(summary.auto_rollback).toBeUndefined();
  expect(await h.open(root).tableExists({ catalog: 'dev', schema: 'hr', name: 'people' })).toBe(true);
});

test('with enable_rollback off nothing is recorded and a mismatch is only reported', async () => {
  const root = h.newRoot();
  await seedSafetyCatalogs(h.open(root));
  const input = h.jobInput(root, { validate_after_clone: true, auto_rollback: true, enable_rollback: false });
  const tq = h.newTaskQueue();
  const summary = await h.withWorker(() => h.run(input, tq), {
    taskQueue: tq,
    activities: (acts) => ({
      async postCloneChecks(ctx) {
        await h.open(root).deleteWhere({ catalog: 'dev', schema: 'hr', name: 'people' }, 'id = 1');
        return acts.postCloneChecks(ctx);
      },
    }),
  });
  expect(summary.validation).toMatchObject({ passed: false, mismatched: 1 });
  expect(summary.auto_rollback).toMatchObject({ triggered: false });
  expect(await listRollbackLogsWithEntries(h.store.db, { jobId: input.jobId })).toEqual([]);
});
