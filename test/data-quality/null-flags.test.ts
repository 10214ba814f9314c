import { compileTableRun, normalizeCheck, summarizeRun, type DqCheck } from '../../activities/data-quality/logic';
import { LocalWorkspace } from '../../platform/local/workspace';
import { tempRoots } from '../local/helpers';

// A check whose predicate is NULL on a row (NULL operand, NULL filter) does not fail that row; the row scan
// spends no coalesce per check, so these counts are what keeps that rule.
const roots = tempRoots();
let ws: LocalWorkspace;
const T = 'main.dq.n';
const COLUMNS = [
  { name: 'id', type: 'bigint' },
  { name: 'amount', type: 'double' },
  { name: 'code', type: 'string' },
];
// id 1: passes all; 2: amount NULL (error check NULL) and code 'ZZ' fails the warn check → warn-only;
// 3: amount 500 fails the error check; 4: amount NULL, code NULL (every check NULL) → valid, no warning;
// 5: amount 500 and code 'ZZ' → invalid (error), also warn.
const ROWS = [
  { id: 1, amount: 10, code: 'US' },
  { id: 2, amount: null, code: 'ZZ' },
  { id: 3, amount: 500, code: 'US' },
  { id: 4, amount: null, code: null },
  { id: 5, amount: 500, code: 'ZZ' },
];

function check(fn: string, args: Record<string, unknown>, criticality: string, filter?: string): DqCheck {
  const r = normalizeCheck(
    { table_fqn: T, check_function: fn, arguments: args, criticality, filter },
    { columns: COLUMNS },
  );
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.check[0];
}

beforeAll(async () => {
  ws = new LocalWorkspace({ root: roots.make('lw-dq-null-'), user: 'alice' });
  await ws.createCatalog({ name: 'main' });
  await ws.createSchema({ catalog: 'main', name: 'dq' });
  await ws.createTable({ ref: { catalog: 'main', schema: 'dq', name: 'n' }, columns: COLUMNS });
  await ws.insertRows({ catalog: 'main', schema: 'dq', name: 'n' }, ROWS);
});
afterAll(async () => {
  await ws.close();
  roots.cleanup();
});

async function summary(checks: DqCheck[]) {
  const run = compileTableRun({ fqn: T, columns: COLUMNS }, checks, { sampleLimit: 10 });
  const row = (await ws.query(run.rowScan!.sql)).rows[0];
  const crit = new Map(checks.map((c) => [c.name, c.criticality]));
  const samples = (await ws.query(run.samplesSql!)).rows.map((r) => [Number(r.id), r._failed_checks]);
  return { ...summarizeRun(run, { rowScan: row, datasetFailures: [] }, (k) => crit.get(k)!), samples };
}

test('a row whose error check is NULL and whose warn check fails is valid and a warning row', async () => {
  const s = await summary([
    check('is_not_greater_than', { column: 'amount', limit: 100 }, 'error'),
    check('sql_expression', { expression: "code <> 'ZZ'" }, 'warn'),
  ]);
  expect(s).toMatchObject({ total_rows: 5, valid_rows: 3, invalid_rows: 2, warning_rows: 1, pass_rate: 60 });
  expect(s.per_check.map((p) => p.failures)).toEqual([2, 2]);
  expect(s.samples.sort()).toEqual([
    [2, expect.stringMatching(/^sql_expression/)],
    [3, 'is_not_greater_than_amount'],
    [5, expect.stringMatching(/^is_not_greater_than_amount, sql_expression/)],
  ]);
});

test('a NULL filter scopes a check out of a row', async () => {
  const s = await summary([
    check('is_not_greater_than', { column: 'amount', limit: 100 }, 'error', "code <> 'ZZ'"),
    check('is_in_list', { column: 'code', allowed: ['US'] }, 'warn', 'amount < 100'),
  ]);
  // error: only row 3 (row 5 is filtered out by code, row 4's filter is NULL); warn: no row (row 2's and
  // row 4's filters are NULL, row 1 passes).
  expect(s).toMatchObject({ total_rows: 5, invalid_rows: 1, warning_rows: 0 });
  expect(s.per_check.map((p) => p.failures)).toEqual([1, 0]);
});
