import { WorkflowFailedError } from '@temporalio/client';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import { insertChecks } from '../../store/data-quality/checks';
import { createInlineRule, listDqEvents } from '../../store/data-quality/ops';
import { recentNotifications } from '../../store/notifications/repo';
import type { Workspace } from '../../platform/port';
import { createHarness, type Harness } from '../helpers/harness';

let h: Harness;
let tq: string;
beforeAll(async () => {
  h = await createHarness('dq-clone');
  tq = h.newTaskQueue();
});
afterAll(async () => h?.teardown());

/**
 * `<cat>.sales.orders` (10 rows) and `<cat>.sales.customers` (ids 1–5). Hand-placed problems: order 3 has no email,
 * order 5 a negative amount, order 7 a customer that does not exist (99); order 8 has no customer (not an orphan).
 */
async function seed(ws: Workspace, cat: string) {
  await ws.createCatalog({ name: cat });
  await ws.createSchema({ catalog: cat, name: 'sales' });
  const orders = { catalog: cat, schema: 'sales', name: 'orders' };
  await ws.createTable({
    ref: orders,
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'customer_id', type: 'bigint' },
      { name: 'amount', type: 'double' },
      { name: 'email', type: 'string' },
    ],
  });
  await ws.insertRows(
    orders,
    Array.from({ length: 10 }, (_, i) => {
      const id = i + 1;
      return {
        id,
        customer_id: id === 7 ? 99 : id === 8 ? null : ((id - 1) % 5) + 1,
        amount: id === 5 ? -1 : id * 10,
        email: id === 3 ? null : `c${id}@example.com`,
      };
    }),
  );
  const customers = { catalog: cat, schema: 'sales', name: 'customers' };
  await ws.createTable({ ref: customers, columns: [{ name: 'id', type: 'bigint' }] });
  await ws.insertRows(
    customers,
    [1, 2, 3, 4, 5].map((id) => ({ id })),
  );
}

async function setup(cat: string) {
  const root = h.newRoot();
  const ws = h.open(root);
  await seed(ws, cat);
  return { root, ws };
}

const check = (cat: string, id: string, fn: string, args: Record<string, unknown>) => ({
  checkId: `${cat}-${id}`,
  name: id,
  tableFqn: `${cat}.sales.orders`,
  criticality: 'error',
  checkFunction: fn,
  arguments: args,
  createdBy: 'test',
});

const rule = (cat: string, name: string, fields: Record<string, unknown>) =>
  createInlineRule(h.store.db, {
    ruleId: `rule-${cat}-${name}`,
    name,
    tableFqn: `${cat}.sales.orders`,
    checkType: 'not_null',
    params: {},
    severity: 'critical',
    action: 'log',
    active: true,
    createdBy: 'test',
    ...fields,
  });

async function clone(root: string, cat: string, request: Record<string, unknown> = {}) {
  const input = h.jobInput(root, { source_catalog: cat, destination_catalog: `${cat}_copy`, ...request });
  const summary = await h.withWorker(() => h.run(input, tq), { taskQueue: tq });
  return { summary, jobId: input.jobId };
}

/** A clone the data-quality hooks stop: its workflow fails, and the job's error is the failure's root cause. */
async function failedClone(root: string, cat: string, request: Record<string, unknown> = {}) {
  const input = h.jobInput(root, { source_catalog: cat, destination_catalog: `${cat}_copy`, ...request });
  const err = await h
    .withWorker(() => h.run(input, tq), { taskQueue: tq })
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(WorkflowFailedError);
  return { error: rootCauseMessage(err), jobId: input.jobId };
}

const catalogs = async (ws: Workspace) => (await ws.listCatalogs()).map((c) => c.name);
const ids = async (ws: Workspace, fqn: string) =>
  (await ws.query(`SELECT id FROM ${fqn} ORDER BY id`)).rows.map((r) => Number(r.id));

test('a gate whose checks fail ends the clone failed with the reason; nothing is written; an incident is recorded', async () => {
  const { root, ws } = await setup('gfail');
  await insertChecks(
    h.store.db,
    [
      check('gfail', 'email_present', 'is_not_null', { column: 'email' }),
      check('gfail', 'amount_positive', 'is_not_less_than', { column: 'amount', limit: 0 }),
    ],
    'test',
  );
  const { error, jobId } = await failedClone(root, 'gfail', {
    dq_gate: { table_fqn: 'gfail.sales.orders', min_pass_rate: 95 },
  });
  expect(error).toBe(
    'prepareTarget: DqBlocked: DQ gate failed: pass rate 80% < threshold 95% (2 invalid rows out of 10)',
  );
  expect(await catalogs(ws)).not.toContain('gfail_copy');
  const [event] = await listDqEvents(h.store.db, { jobId, type: 'gate_failed' });
  expect(event.payload).toMatchObject({
    passed: false,
    pass_rate: 80,
    invalid_rows: 2,
    total_rows: 10,
    checks_applied: 2,
  });
  expect((await recentNotifications(h.store.db)).some((n) => n.type === 'dq_incident' && n.jobId === jobId)).toBe(true);
});

test('a gate whose check query errors blocks too (fails closed), as does a gate with no checks', async () => {
  const { root, ws } = await setup('gerr');
  await insertChecks(
    h.store.db,
    [check('gerr', 'broken', 'sql_expression', { expression: 'no_such_column > 0' })],
    'test',
    { audit: false },
  );
  const broken = await failedClone(root, 'gerr', { dq_gate: { table_fqn: 'gerr.sales.orders', min_pass_rate: 0 } });
  expect(broken.error).toMatch(/DQ gate failed closed: gerr\.sales\.orders: .*no_such_column/i);
  const none = await failedClone(root, 'gerr', { dq_gate: { table_fqn: 'gerr.sales.customers', min_pass_rate: 0 } });
  expect(none.error).toContain('DQ gate failed closed: gerr.sales.customers: no enabled checks');
  expect(await catalogs(ws)).not.toContain('gerr_copy');
});

test('a gate at or below the pass rate lets the clone run; the summary carries its verdict', async () => {
  const { root, ws } = await setup('gpass');
  await insertChecks(h.store.db, [check('gpass', 'email_present', 'is_not_null', { column: 'email' })], 'test');
  const { summary } = await clone(root, 'gpass', { dq_gate: { table_fqn: 'gpass.sales.orders', min_pass_rate: 90 } });
  expect(summary.status).toBe('completed');
  expect(summary.dq_gate).toMatchObject({ passed: true, pass_rate: 90, min_pass_rate: 90 });
  expect(await ids(ws, 'gpass_copy.sales.orders')).toHaveLength(10);
});

test('a block rule stops the clone before any table is written and returns its error', async () => {
  const { root, ws } = await setup('rblock');
  await rule('rblock', 'email_required', { checkType: 'not_null', columnName: 'email', action: 'block' });
  const { error, jobId } = await failedClone(root, 'rblock');
  expect(error).toContain(
    'inline rule email_required (not_null, critical, block) found 1 violating row(s) in rblock.sales.orders',
  );
  expect(await catalogs(ws)).not.toContain('rblock_copy');
  expect(await listDqEvents(h.store.db, { jobId, type: 'rule_blocked' })).toHaveLength(1);
});

test('quarantine rules move exactly the violating rows beside the destination table; the rest is copied', async () => {
  const { root, ws } = await setup('rq');
  await rule('rq', 'known_customer', {
    checkType: 'referential',
    columnName: 'customer_id',
    params: { ref_table: 'rq.sales.customers', ref_column: 'id' },
    action: 'quarantine',
  });
  await rule('rq', 'amount_range', {
    checkType: 'range',
    columnName: 'amount',
    params: { min: 0, max: 1000 },
    action: 'quarantine',
  });
  // an inactive rule does nothing
  await rule('rq', 'inactive_email', { checkType: 'not_null', columnName: 'email', action: 'block', active: false });
  const { summary } = await clone(root, 'rq');
  expect(summary.status).toBe('completed');
  expect(await ids(ws, 'rq_copy.sales.orders_quarantine')).toEqual([5, 7]);
  expect(await ids(ws, 'rq_copy.sales.orders')).toEqual([1, 2, 3, 4, 6, 8, 9, 10]);
  expect(await ids(ws, 'rq.sales.orders')).toHaveLength(10);
  expect(summary.dq_inline_rules).toEqual([
    expect.objectContaining({
      action: 'quarantine',
      violations: 2,
      quarantine_table: 'rq_copy.sales.orders_quarantine',
      rules: ['amount_range', 'known_customer'],
    }),
  ]);
});

test('a log rule records the violation and the clone continues with every row', async () => {
  const { root, ws } = await setup('rlog');
  await rule('rlog', 'email_wanted', {
    checkType: 'not_null',
    columnName: 'email',
    severity: 'warning',
    action: 'log',
  });
  const { summary, jobId } = await clone(root, 'rlog');
  expect(summary.status).toBe('completed');
  expect(await ids(ws, 'rlog_copy.sales.orders')).toHaveLength(10);
  const [event] = await listDqEvents(h.store.db, { jobId, type: 'rule_logged' });
  expect(event.payload).toMatchObject({ rule: 'email_wanted', violations: 1, action: 'log' });
  expect(summary.dq_inline_rules).toEqual([expect.objectContaining({ rule: 'email_wanted', violations: 1 })]);
});
