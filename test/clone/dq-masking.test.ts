import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { CloneHooks } from '../../activities/clone';
import { createHarness, type Harness } from '../helpers/harness';
import { seedSafetyCatalogs } from './fixtures/safety-seed';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('dq-mask');
});
afterAll(async () => h?.teardown());

const devOrders = { catalog: 'dev', schema: 'sales', name: 'orders' };

/** A writer that changes the destination after the sales schema is cloned, before its DQ comparison. */
const afterSales = (change: (root: string) => Promise<void>, root: string): CloneHooks => ({
  async afterSchema({ schema }) {
    if (schema === 'sales') await change(root);
  },
});
const deleteTwoOrders = async (root: string) => void (await h.open(root).deleteWhere(devOrders, 'id IN (2, 3)'));

async function cloneWithDq(pct: number, change: (root: string) => Promise<void>) {
  const root = h.newRoot();
  await seedSafetyCatalogs(h.open(root));
  const before = await h.open(root).tableChecksum(devOrders);
  const input = h.jobInput(root, { compare_dq_after_clone: true, dq_drift_rollback_pct: pct, auto_rollback: true });
  const tq = h.newTaskQueue();
  const summary = await h.withWorker(() => h.run(input, tq), { taskQueue: tq, cloneHooks: [afterSales(change, root)] });
  return { root, before, summary };
}

test('DQ drift above dq_drift_rollback_pct triggers the restore', async () => {
  const { root, before, summary } = await cloneWithDq(5, deleteTwoOrders); // 2 of 20 rows (non-NULL notes): 10% drift
  expect(summary.dq_comparison).toMatchObject({
    passed: false,
    failed_tables: ['sales.orders'],
    threshold_pct: 5,
    max_drift_pct: 10,
  });
  expect(summary.auto_rollback).toMatchObject({ triggered: true, result: { status: 'rolled_back' } });
  expect(await h.open(root).tableChecksum(devOrders)).toBe(before);
  expect(await h.open(root).tableExists({ catalog: 'dev', schema: 'hr', name: 'people' })).toBe(false);
});

test('DQ drift below the threshold keeps the clone', async () => {
  const { root, summary } = await cloneWithDq(15, deleteTwoOrders);
  expect(summary.dq_comparison).toMatchObject({ passed: true, tables_compared: 3, max_drift_pct: 10 });
  expect(summary.auto_rollback).toBeUndefined();
  expect(summary.status).toBe('completed');
  expect((await h.open(root).tableStats(devOrders)).rowCount).toBe(18);
});

test('a comparison query that fails counts as a failure, even at a 100% threshold', async () => {
  const corrupt = async (root: string) => {
    const location = (await h.open(root).describeTable(devOrders)).location!;
    const dir = location.replace(/^file:\/\//, '');
    for (const f of readdirSync(dir))
      if (f.endsWith('.parquet') && statSync(path.join(dir, f)).isFile()) rmSync(path.join(dir, f));
  };
  const { summary } = await cloneWithDq(100, corrupt);
  expect(summary.dq_comparison).toMatchObject({ passed: false, errors: 1, failed_tables: ['sales.orders'] });
  expect(summary.auto_rollback).toMatchObject({ triggered: true });
});

test("PII columns on the destination return values masked with each tag's strategy; the source is untouched", async () => {
  const root = h.newRoot();
  const ws = h.open(root);
  await seedSafetyCatalogs(ws);
  const input = h.jobInput(root, { auto_mask_pii: true, include_schemas: ['sales'] });
  const tq = h.newTaskQueue();
  const summary = await h.withWorker(() => h.run(input, tq), { taskQueue: tq });
  expect((summary.masking as { masked: unknown[] }).masked).toHaveLength(3);
  const rows = (await ws.query('SELECT id, email, phone, ssn, city FROM dev.sales.customers ORDER BY id')).rows;
  expect(rows[0]).toMatchObject({
    email: 'a***@example.com',
    phone: '********4567',
    ssn: createHash('sha256').update('111-22-3333').digest('hex'),
    city: 'London',
  });
  expect(rows[1]).toMatchObject({ email: 'a***@example.org', phone: '********6543', city: 'Wilmslow' });
  const src = (await ws.query('SELECT email FROM prod.sales.customers WHERE id = 1')).rows;
  expect(src[0].email).toBe('ada@example.com');
});

test('a requested masking strategy is honoured for every PII column', async () => {
  const root = h.newRoot();
  const ws = h.open(root);
  await seedSafetyCatalogs(ws);
  const input = h.jobInput(root, { auto_mask_pii: true, pii_mask_strategy: 'redact', include_schemas: ['sales'] });
  const tq = h.newTaskQueue();
  const summary = await h.withWorker(() => h.run(input, tq), { taskQueue: tq });
  expect((summary.masking as { masked: { strategy: string }[] }).masked.map((m) => m.strategy)).toEqual([
    'redact',
    'redact',
    'redact',
  ]);
  const rows = (await ws.query('SELECT email, phone, ssn, city FROM dev.sales.customers ORDER BY id')).rows;
  expect(rows).toEqual([
    { email: '[REDACTED]', phone: '[REDACTED]', ssn: '[REDACTED]', city: 'London' },
    { email: '[REDACTED]', phone: '[REDACTED]', ssn: '[REDACTED]', city: 'Wilmslow' },
  ]);
});

test('NULL-count drift of a column counts as drift', async () => {
  const nullNotes = async (root: string) =>
    void (await h.open(root).updateWhere(devOrders, { note: 'NULL' }, 'id IN (2, 3, 4)'));
  const { summary } = await cloneWithDq(50, nullNotes); // 5 → 8 NULLs in note: 37.5% drift, rows unchanged
  expect(summary.dq_comparison).toMatchObject({ passed: true, max_drift_pct: 37.5 });
  const strict = await cloneWithDq(30, nullNotes);
  expect(strict.summary.dq_comparison).toMatchObject({ passed: false, failed_tables: ['sales.orders'] });
});
