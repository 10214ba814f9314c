import { compileTableRun, normalizeCheck, type DqCheck } from '../../activities/data-quality/logic';
import { LocalWorkspace } from '../../platform/local/workspace';
import { tempRoots } from '../local/helpers';

/**
 * The two locally runnable DQX functions the main function table has no column for: an aggregate outlier over
 * time intervals (needs a daily series) and a non-empty array (needs an array column). Failures counted by hand.
 */
const roots = tempRoots();
let ws: LocalWorkspace;
beforeAll(async () => {
  ws = new LocalWorkspace({ root: roots.make('lw-dq-extra-'), user: 'alice' });
  await ws.createCatalog({ name: 'main' });
  await ws.createSchema({ catalog: 'main', name: 'dq' });
  // Nine days of one reading a day: 10, 11, 10, 11, … then day 9 reads 100 — three readings that day.
  await ws.createTable({
    ref: { catalog: 'main', schema: 'dq', name: 'daily' },
    columns: [
      { name: 'ts', type: 'timestamp' },
      { name: 'v', type: 'double' },
    ],
  });
  const rows = Array.from({ length: 8 }, (_, i) => ({
    ts: `2024-01-0${i + 1}T12:00:00Z`,
    v: i % 2 ? 11 : 10,
  }));
  for (const h of ['01', '02', '03']) rows.push({ ts: `2024-01-09T${h}:00:00Z`, v: 100 });
  await ws.insertRows({ catalog: 'main', schema: 'dq', name: 'daily' }, rows);
  await ws.createTable({
    ref: { catalog: 'main', schema: 'dq', name: 'arrays' },
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'tags', type: 'array<string>' },
    ],
  });
  await ws.insertRows({ catalog: 'main', schema: 'dq', name: 'arrays' }, [
    { id: 1, tags: ['a'] },
    { id: 2, tags: [] },
    { id: 3, tags: null },
    { id: 4, tags: ['b', 'c'] },
  ]);
}, 60_000);
afterAll(() => roots.cleanup());

async function failures(table: string, columns: { name: string; type: string }[], fn: string, args: object) {
  const r = normalizeCheck({ table_fqn: table, check_function: fn, arguments: args }, { columns });
  if (!r.ok) throw new Error(`${fn}: ${JSON.stringify(r.issues)}`);
  const check: DqCheck = r.check[0];
  const run = compileTableRun({ fqn: table, columns }, [check]);
  if (run.rowScan) return Number((await ws.query(run.rowScan.sql)).rows[0][run.rowScan.checkAliases[0].alias]);
  return Number((await ws.query(run.datasetQueries[0].sql)).rows[0].failures);
}

test('has_no_aggr_outliers flags the rows of the one day whose mean leaves its history by more than sigma', async () => {
  const columns = [
    { name: 'ts', type: 'timestamp' },
    { name: 'v', type: 'double' },
  ];
  const args = { column: 'v', time_column: 'ts', aggr_type: 'avg', sigma: 3, warmup_num_intervals: 7 };
  expect(await failures('main.dq.daily', columns, 'has_no_aggr_outliers', args)).toBe(3);
  // Before the warm-up is over nothing can be an outlier.
  expect(await failures('main.dq.daily', columns, 'has_no_aggr_outliers', { ...args, warmup_num_intervals: 9 })).toBe(
    0,
  );
});

test('is_not_null_and_not_empty_array fails the null and the empty array', async () => {
  const columns = [
    { name: 'id', type: 'bigint' },
    { name: 'tags', type: 'array<string>' },
  ];
  expect(await failures('main.dq.arrays', columns, 'is_not_null_and_not_empty_array', { column: 'tags' })).toBe(2);
});
