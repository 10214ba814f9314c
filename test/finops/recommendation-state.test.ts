import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { WAREHOUSE_WEEK_SQL, warehouseWeek } from '../../activities/finops/logic/recommendation-facts';
import {
  applyPlan,
  applyRefusal,
  effectiveStatus,
  peakConcurrency,
  reconcile,
} from '../../activities/finops/logic/recommendation-state';
import { smallFiles, unusedClone, type Recommendation } from '../../activities/finops/logic/recommendations';

const DAY = 86_400_000;
const now = new Date('2026-11-24T00:00:00Z');
const rec = smallFiles({
  table: 'prod.sales.orders',
  total_bytes: 1e6,
  vacuumable_bytes: 0,
  file_count: 200,
  current_bytes: 1e6,
}) as Recommendation;

test('a refresh opens new findings, keeps open / applied ones, resolves the vanished, never duplicates', () => {
  const other = { ...rec, id: 'x'.repeat(24), subject: 'prod.sales.items' };
  const first = reconcile([], [rec, rec], now);
  expect(first.upserts.map((u) => [u.rec.id, u.status])).toEqual([[rec.id, 'open']]);
  const stored = [
    { id: rec.id, status: 'open' as const, suppressedUntil: null },
    { id: other.id, status: 'open' as const, suppressedUntil: null },
    { id: 'gone-applied', status: 'applied' as const, suppressedUntil: null },
  ];
  const second = reconcile(stored, [rec], now);
  expect(second.upserts).toEqual([{ rec, status: 'open', reopened: false }]);
  expect(second.missing).toEqual([other.id, 'gone-applied']);
  expect(second.resolve).toEqual([other.id]);
  const applied = reconcile([{ id: rec.id, status: 'applied', suppressedUntil: null }], [rec], now);
  expect(applied.upserts[0].status).toBe('applied');
  const back = reconcile([{ id: rec.id, status: 'resolved', suppressedUntil: null }], [rec], now);
  expect(back.upserts[0]).toMatchObject({ status: 'open', reopened: true });
});

test('dismissed and snoozed findings stay so for their days, then reopen if still found', () => {
  for (const status of ['dismissed', 'snoozed'] as const) {
    const s = { id: rec.id, status, suppressedUntil: new Date(now.getTime() + 30 * DAY) };
    expect(reconcile([s], [rec], new Date(now.getTime() + 29 * DAY)).upserts[0].status).toBe(status);
    expect(reconcile([s], [rec], new Date(now.getTime() + 30 * DAY)).upserts[0]).toMatchObject({
      status: 'open',
      reopened: true,
    });
    expect(effectiveStatus({ ...s, found: true }, new Date(now.getTime() + 31 * DAY))).toBe('open');
    expect(effectiveStatus({ ...s, found: false }, new Date(now.getTime() + 31 * DAY))).toBe(status);
    expect(effectiveStatus({ ...s, found: true }, now)).toBe(status);
  }
});

test('apply is refused unless open and one-click or auto; a drop needs confirm', () => {
  expect(applyRefusal(rec, 'open', false)).toBeNull();
  expect(applyRefusal(rec, 'applied', false)).toMatchObject({ status: 409, message: expect.stringMatching(/applied/) });
  expect(applyRefusal({ ...rec, effort: 'requires-config-change' }, 'open', false)).toMatchObject({
    status: 409,
    message: expect.stringMatching(/effort requires-config-change/),
  });
  const drop = unusedClone(
    { table: 'dev.s.t', bytes: 1, created: new Date(0), last_read: null, last_sync: null },
    now,
    0.023,
  ) as Recommendation;
  expect(applyRefusal(drop, 'open', false)).toMatchObject({ status: 400, path: 'body.confirm' });
  expect(applyRefusal(drop, 'open', true)).toBeNull();
});

test('the apply plan is the statement or request that runs, identifiers quoted', () => {
  expect(applyPlan({ ...rec, subject: 'a.b.we`ird' })).toMatchObject({
    kind: 'optimize',
    sql: 'OPTIMIZE `a`.`b`.`we``ird`',
  });
  expect(applyPlan({ type: 'vacuum', subject: 'a.b.c', action: { sql: 'VACUUM' } })).toMatchObject({
    sql: 'VACUUM `a`.`b`.`c`',
  });
  expect(applyPlan({ type: 'unused_clone', subject: 'a.b.c', action: { drop: true, confirm: true } })).toMatchObject({
    kind: 'drop',
    sql: 'DROP TABLE `a`.`b`.`c`',
  });
  expect(applyPlan({ type: 'idle_warehouse', subject: 'wh1', action: { patch: { auto_stop_mins: 10 } } })).toEqual({
    kind: 'warehouse_patch',
    warehouse_id: 'wh1',
    patch: { auto_stop_mins: 10 },
    request: 'PATCH /infrastructure/warehouses/wh1 {"auto_stop_mins":10}',
  });
  expect(() => applyPlan({ type: 'vacuum', subject: 'not-a-table', action: { sql: 'VACUUM' } })).toThrow(/schema/);
});

test('peak concurrency counts overlapping spans (touching ends do not overlap)', () => {
  expect(peakConcurrency([])).toBe(0);
  expect(
    peakConcurrency([
      { start: 0, end: 10 },
      { start: 10, end: 20 },
    ]),
  ).toBe(1);
  expect(
    peakConcurrency([
      { start: 0, end: 10 },
      { start: 5, end: 20 },
      { start: 6, end: 7 },
      { start: 15, end: 30 },
    ]),
  ).toBe(3);
});

test('a warehouse week turns DBUs back into seconds through its size rate', () => {
  const w = warehouseWeek(
    { id: 'wh', clusterSize: 'Small', autoStopMins: 120 },
    {
      warehouse_id: 'wh',
      dbus: 24,
      idle_dbus: 6,
      cost: 13.2,
      idle_cost: 3.3,
    },
    2,
  );
  expect(w).toMatchObject({ uptime_seconds: 7200, idle_seconds: 1800, cost_usd: 13.2, peak_concurrency: 2 });
  expect(warehouseWeek({ id: 'wh', clusterSize: 'Small', autoStopMins: 0 }, undefined, 0).uptime_seconds).toBe(0);
});

test('the warehouse usage SQL is Databricks SQL that sqlglot parses', () => {
  const py = path.join(__dirname, '../../.venv/bin/python');
  const out = spawnSync(
    py,
    ['-c', 'import sys, sqlglot; sqlglot.parse_one(sys.stdin.read(), read="databricks"); print("ok")'],
    {
      input: WAREHOUSE_WEEK_SQL,
      encoding: 'utf8',
    },
  );
  expect(out.stderr).toBe('');
  expect(out.stdout.trim()).toBe('ok');
});
