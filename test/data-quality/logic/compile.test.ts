import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { compileTableRun, normalizeCheck, type DqCheck } from '../../../activities/data-quality/logic';

const COLUMNS = [
  { name: 'id', type: 'bigint' },
  { name: 'geom', type: 'string' },
  { name: 'amount', type: 'double' },
];
const T = { fqn: 'main.dq.`we``ird`', columns: COLUMNS };
const PARSE = `import json, sys, sqlglot
out = []
for sql in json.load(sys.stdin):
    try:
        sqlglot.parse_one(sql, read="databricks"); out.append(None)
    except Exception as e:
        out.append(str(e).splitlines()[0][:200])
print(json.dumps(out))`;

function check(fn: string, args: Record<string, unknown>, criticality = 'error'): DqCheck {
  const r = normalizeCheck({ table_fqn: T.fqn, check_function: fn, arguments: args, criticality }, T, {
    spatial: true,
  });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.check[0];
}

describe('compiled Databricks SQL', () => {
  it('parses with sqlglot (databricks), geo checks included, with every identifier quoted', () => {
    const geo = ['is_geometry', 'is_point', 'is_ogc_valid', 'is_not_null_island', 'is_area_equal_to', 'is_geo_within'];
    const checks = geo.map((fn) =>
      check(fn, {
        column: 'geom',
        ...(fn.startsWith('is_area') ? { value: 1 } : {}),
        ...(fn === 'is_geo_within' ? { reference_geometry: 'POINT (0 0)' } : {}),
      }),
    );
    checks.push(check('is_in_range', { column: 'amount', min_limit: 0, max_limit: 9 }, 'warn'));
    checks.push(check('are_polygons_mutually_disjoint', { column: 'geom' }));
    checks.push(check('has_no_aggr_outliers', { column: 'amount', time_column: 'id' }));
    const run = compileTableRun(T, checks);
    const sqls = [run.rowScan!.sql, run.samplesSql!, ...run.datasetQueries.map((d) => d.sql)];
    const py = path.join(__dirname, '../../../.venv/bin/python');
    const errors = JSON.parse(execFileSync(py, ['-c', PARSE], { input: JSON.stringify(sqls), encoding: 'utf8' }));
    expect(errors).toEqual(sqls.map(() => null));
    expect(run.rowScan!.sql).toContain('FROM `main`.`dq`.`we``ird`');
    expect(run.rowScan!.checkAliases).toHaveLength(7);
  });
});

describe('bad checks are refused naming the field', () => {
  const table = { columns: COLUMNS };
  it.each([
    [{ check_function: 'is_nto_null', arguments: { column: 'id' } }, 'check_function', 422],
    [
      { check_function: 'is_in_range', arguments: { column: 'amount', min_limit: 'x', max_limit: 3 } },
      'arguments.min_limit',
      422,
    ],
    [{ check_function: 'is_not_null', arguments: { column: 'nope' } }, 'arguments.column', 422],
    [{ check_function: 'is_in_list', arguments: { column: 'id', allowed: 'a' } }, 'arguments.allowed', 422],
    [{ check_function: 'is_not_null', arguments: {} }, 'arguments.column', 422],
    [
      { check_function: 'sql_expression', arguments: { expression: 'id > 1; DROP TABLE x' } },
      'arguments.expression',
      400,
    ],
    [
      { check_function: 'sql_expression', arguments: { expression: 'id IN (DELETE FROM x)' } },
      'arguments.expression',
      400,
    ],
    [
      { check_function: 'sql_query', arguments: { query: 'CREATE TABLE x AS SELECT 1', condition_column: 'c' } },
      'arguments.query',
      400,
    ],
    [{ check_function: 'is_not_null', arguments: { column: 'id' }, filter: 'id > 0 -- x' }, 'filter', 400],
    [{ check_function: 'is_not_null', arguments: { column: 'id' }, criticality: 'fatal' }, 'criticality', 422],
    [{ check_function: 'is_point', arguments: { column: 'geom' } }, 'check_function', 422],
    [
      { check_function: 'has_no_row_anomalies', arguments: { model_name: 'm', registry_table: 'a.b.c' } },
      'check_function',
      422,
    ],
  ])('%j → %s %d', (input, pathName, status) => {
    const r = normalizeCheck({ table_fqn: 'main.dq.t', ...input }, table, { spatial: false });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toContainEqual(expect.objectContaining({ path: pathName, status }));
  });

  it('normalises Clone-Xs names, warning and for_each_column to DQX', () => {
    const r = normalizeCheck(
      {
        table_fqn: 'main.dq.t',
        check: { function: 'is_not_in_list', for_each_column: ['id', 'amount'], arguments: { not_allowed: [1] } },
        criticality: 'warning',
      },
      table,
    );
    expect(r.ok && r.check.map((c) => [c.name, c.criticality, c.arguments])).toEqual([
      ['is_not_in_list_id', 'warn', { column: 'id', forbidden: [1] }],
      ['is_not_in_list_amount', 'warn', { column: 'amount', forbidden: [1] }],
    ]);
  });
});
