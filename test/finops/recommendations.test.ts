import {
  idleWarehouse,
  oversizedWarehouse,
  recommendationId,
  smallFiles,
  unusedClone,
  vacuum,
  type TableStorage,
  type WarehouseWeek,
} from '../../activities/finops/logic/recommendations';

const GiB = 2 ** 30;
const week: WarehouseWeek = {
  warehouse_id: 'wh1',
  cluster_size: 'Small',
  auto_stop_mins: 10,
  uptime_seconds: 10_000,
  idle_seconds: 4_900,
  cost_usd: 70,
  idle_cost_usd: 7,
  peak_concurrency: 2,
};
const storage: TableStorage = {
  table: 'prod.sales.orders',
  total_bytes: 10 * GiB,
  vacuumable_bytes: 0.9 * GiB,
  file_count: 99,
  current_bytes: 99 * 1_000_000,
};

test('idle_warehouse: idle share just under / at 50%, or auto-stop 0 or over 60', () => {
  expect(idleWarehouse(week)).toBeNull();
  const idle = idleWarehouse({ ...week, idle_seconds: 5_000 });
  expect(idle).toMatchObject({ action: { patch: { auto_stop_mins: 10 } }, savings_usd_month: 30, effort: 'one-click' });
  expect(idle?.id).toBe(recommendationId('idle_warehouse', 'wh1'));
  expect(idleWarehouse({ ...week, auto_stop_mins: 60 })).toBeNull();
  expect(idleWarehouse({ ...week, auto_stop_mins: 61 })).not.toBeNull();
  expect(idleWarehouse({ ...week, auto_stop_mins: 0 })).not.toBeNull();
});

test('oversized_warehouse: peak concurrency 1 sizes one step down, 2 does not', () => {
  expect(oversizedWarehouse(week)).toBeNull();
  const r = oversizedWarehouse({ ...week, peak_concurrency: 1 });
  // Small 12 DBU/h → X-Small 6: half of 70 USD a week, × 30/7
  expect(r).toMatchObject({ action: { patch: { cluster_size: 'X-Small' } }, savings_usd_month: 150 });
  expect(oversizedWarehouse({ ...week, peak_concurrency: 1, cluster_size: '2X-Small' })).toBeNull();
});

test('vacuum: 1 GiB or 20% vacuumable', () => {
  expect(vacuum(storage, 0.023)).toBeNull();
  expect(vacuum({ ...storage, vacuumable_bytes: GiB }, 0.023)).toMatchObject({ savings_usd_month: 0.02 });
  expect(vacuum({ ...storage, total_bytes: 4.5 * GiB }, 0.023)).not.toBeNull(); // 20%
});

test('small_files: 100 files averaging under 32 MiB → OPTIMIZE, no invented saving', () => {
  expect(smallFiles(storage)).toBeNull();
  const r = smallFiles({ ...storage, file_count: 100, current_bytes: 100 * 1_000_000 });
  expect(r).toMatchObject({ action: { sql: 'OPTIMIZE' }, savings_usd_month: null });
  expect(smallFiles({ ...storage, file_count: 100, current_bytes: 100 * 32 * 2 ** 20 })).toBeNull();
});

test('unused_clone: unread and unsynced for 30 days → drop with confirm', () => {
  const now = new Date('2026-11-24T00:00:00Z');
  const c = {
    table: 'dev.sales.orders',
    bytes: 2 * GiB,
    created: new Date('2026-01-01T00:00:00Z'),
    last_read: new Date('2026-10-26T00:00:00Z'), // 29 days
    last_sync: null,
  };
  expect(unusedClone(c, now, 0.023)).toBeNull();
  const r = unusedClone({ ...c, last_read: new Date('2026-10-25T00:00:00Z') }, now, 0.023);
  expect(r).toMatchObject({ action: { drop: true, confirm: true }, savings_usd_month: 0.05 });
});
