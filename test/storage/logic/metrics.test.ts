import { formatBytes, nameMatcher, pct, storageSummary } from '../../../activities/storage/logic/metrics';
import { effectiveSetting, recommend, settingOf } from '../../../activities/storage/logic/predictive';

const m = (total: number, vac: number | null, exact = true) => ({
  retentionHours: 168,
  totalBytes: total,
  activeBytes: total - (vac ?? 0),
  timeTravelBytes: exact ? 0 : null,
  vacuumableBytes: vac,
  numTotalFiles: 2,
  numActiveFiles: 1,
  numTimeTravelFiles: 0,
  numVacuumableFiles: 1,
  exact,
  note: exact ? null : 'not available',
});

test('sizes base 1024 with B, KB/MB one decimal, GB/TB two; percentages one decimal', () => {
  expect([0, 1023, 1024, 1536, 5 * 1024 ** 2, 3.5 * 1024 ** 3, 2 * 1024 ** 4].map(formatBytes)).toEqual([
    '0 B',
    '1023 B',
    '1.0 KB',
    '1.5 KB',
    '5.0 MB',
    '3.50 GB',
    '2.00 TB',
  ]);
  expect([pct(1, 3), pct(0, 0), pct(2, 2)]).toEqual([33.3, 0, 100]);
});

test('summary: sums, schema rows, top lists of tables above 0, unknown figures as 0 with exact false and the note', () => {
  const s = storageSummary('c', [
    { schema: 'b', table: 't1', format: 'DELTA', metrics: m(100, 40), error: null },
    { schema: 'a', table: 't2', format: 'DELTA', metrics: m(300, 0), error: null },
    { schema: 'a', table: 't3', format: 'DELTA', metrics: m(50, null, false), error: null },
    { schema: 'a', table: 't4', format: null, metrics: null, error: 'gone' },
  ]);
  expect(s).toMatchObject({ catalog: 'c', num_schemas: 2, num_tables: 4, total_bytes: 450, vacuumable_bytes: 40 });
  expect(s.exact).toBe(false);
  expect(s.notes).toEqual(['not available', '1 table(s) could not be measured: c.a.t4']);
  expect(s.tables.map((t) => t.fqn)).toEqual(['c.a.t2', 'c.a.t3', 'c.a.t4', 'c.b.t1']);
  expect(s.schema_summaries).toMatchObject([
    { schema_name: 'a', num_tables: 3, total_bytes: 350 },
    { schema_name: 'b', num_tables: 1, total_bytes: 100, vacuumable_pct: 40 },
  ]);
  expect(s.top_tables_by_vacuumable.map((t) => t.fqn)).toEqual(['c.b.t1']);
  expect(s.top_tables_by_total.map((t) => t.fqn)).toEqual(['c.a.t2', 'c.b.t1', 'c.a.t3']);
});

test('name filters are case-insensitive globs', () => {
  expect(['Sales', 'sales_eu', 'ops'].filter(nameMatcher('sales*'))).toEqual(['Sales', 'sales_eu']);
  expect(['a-b', 'ab'].filter(nameMatcher('a-b'))).toEqual(['a-b']);
  expect(nameMatcher(undefined)('x')).toBe(true);
});

test('predictive optimization: own setting, inherited from schema or catalog, platform default; recommendations', () => {
  expect(settingOf({ 'delta.enablePredictiveOptimization': 'true' })).toBe('enabled');
  expect(settingOf({ predictive_optimization: 'DISABLE' })).toBe('disabled');
  expect(settingOf({ other: 'true' })).toBeNull();
  const names = { schema: 's', catalog: 'c' };
  expect(
    effectiveSetting({ table: {}, schema: { predictive_optimization: 'enable' }, catalog: {} }, names, 'databricks'),
  ).toEqual({ setting: 'inherited', inheritedFrom: 'schema s', effective: 'enabled' });
  expect(effectiveSetting({ table: {}, schema: {}, catalog: {} }, names, 'databricks').setting).toBe('unknown');
  expect(effectiveSetting({ table: {}, schema: {}, catalog: {} }, names, 'local').setting).toBe('disabled');
  expect(recommend({ numFiles: 10, dataBytes: 10_000, vacuumablePct: 50 }, 'disabled').recommendation).toBe(
    'optimize_and_vacuum',
  );
  expect(recommend({ numFiles: 1, dataBytes: 10_000, vacuumablePct: 0 }, 'disabled').recommendation).toBe('none');
  expect(recommend({ numFiles: 10, dataBytes: 10_000, vacuumablePct: 50 }, 'enabled').recommendation).toBe('none');
});
