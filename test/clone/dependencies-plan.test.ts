import {
  dependencyWarnings,
  planViewDependencies,
  pulledTablesOf,
  type CatalogObject,
} from '../../activities/clone/logic/view-dependencies';
import { chooseSchemas, leftOutBy, selectionFor } from '../../activities/clone/selection';
import { applyCloneDefaults } from '../../schemas/clone';

const table = (schema: string, name: string, leftOut: string | null = null): CatalogObject => ({
  schema,
  name,
  kind: 'table',
  leftOut,
});
const view = (schema: string, name: string, definition: string, leftOut: string | null = null): CatalogObject => ({
  schema,
  name,
  kind: 'view',
  definition,
  leftOut,
});

const objects = [
  table('sales', 'orders', 'exclude_tables_regex'),
  table('sales', 'customers'),
  view('sales', 'v_orders', 'SELECT * FROM prod.sales.orders'),
  view('sales', 'v_top', 'SELECT * FROM prod.sales.v_orders WHERE amount > 9'),
  view('sales', 'v_customers', 'SELECT * FROM prod.sales.customers'),
  view('sales', 'v_remote', 'SELECT * FROM other.sales.orders'),
  table('hr', 'employees', 'exclude_schemas'),
  view('sales', 'v_staff', 'SELECT e.name FROM prod.hr.employees e JOIN prod.sales.customers c ON e.name = c.rep'),
];
const roots = ['sales.v_orders', 'sales.v_top', 'sales.v_customers', 'sales.v_remote', 'sales.v_staff'];

describe('view dependency planning', () => {
  test('a view reading a left-out table is skipped, and so is a view reading it; other catalogs are not missing', () => {
    const plan = planViewDependencies({ catalog: 'prod', objects, roots, includeDependencies: false });
    expect(plan.pulledIn).toEqual([]);
    expect(plan.skipped.map((s) => s.message)).toEqual([
      'view sales.v_orders skipped: it reads sales.orders, which this clone leaves out (exclude_tables_regex)',
      'view sales.v_staff skipped: it reads hr.employees, which this clone leaves out (exclude_schemas)',
      'view sales.v_top skipped: it reads sales.v_orders, a view skipped because it reads sales.orders, which this clone leaves out (exclude_tables_regex)',
    ]);
    expect(dependencyWarnings(plan, 'sales')).toEqual(plan.skipped.map((s) => s.message));
  });

  test('include_dependencies pulls the left-out objects in instead, dependencies first', () => {
    const plan = planViewDependencies({ catalog: 'prod', objects, roots, includeDependencies: true });
    expect(plan.skipped).toEqual([]);
    expect(plan.pulledIn.map((p) => [p.key, p.kind, p.reason, p.readBy])).toEqual([
      ['sales.orders', 'table', 'exclude_tables_regex', 'sales.v_orders'],
      ['hr.employees', 'table', 'exclude_schemas', 'sales.v_staff'],
    ]);
    expect([...pulledTablesOf(plan, 'sales')]).toEqual(['orders']);
    expect(dependencyWarnings(plan, 'sales')).toEqual([
      'include_dependencies: views of schema sales read objects the filters leave out; pulled into the clone: ' +
        'table sales.orders (exclude_tables_regex, read by sales.v_orders), table hr.employees (exclude_schemas, read by sales.v_staff)',
    ]);
  });

  test('a left-out view is pulled in together with what it reads', () => {
    const objs = [
      table('sales', 'raw_orders', 'include_objects'),
      view('sales', 'eu_orders', 'SELECT * FROM prod.sales.raw_orders', 'include_objects'),
      view('sales', 'report', 'SELECT count(*) FROM prod.sales.eu_orders'),
    ];
    const plan = planViewDependencies({
      catalog: 'prod',
      objects: objs,
      roots: ['sales.report'],
      includeDependencies: true,
    });
    expect(plan.pulledIn.map((p) => p.key)).toEqual(['sales.raw_orders', 'sales.eu_orders']);
  });

  test('views on a cycle are not reported as missing dependencies', () => {
    const objs = [view('s', 'a', 'SELECT * FROM prod.s.b'), view('s', 'b', 'SELECT * FROM prod.s.a')];
    const plan = planViewDependencies({
      catalog: 'prod',
      objects: objs,
      roots: ['s.a', 's.b'],
      includeDependencies: false,
    });
    expect(plan.skipped).toEqual([]);
  });
});

describe('which option leaves an object out', () => {
  const opts = (extra: Record<string, unknown>) =>
    applyCloneDefaults({ source_catalog: 'prod', destination_catalog: 'dev', ...extra } as never);
  const reason = (extra: Record<string, unknown>, schema: string, name: string) => {
    const o = opts(extra);
    return leftOutBy(schema, name, o, chooseSchemas(['sales', 'hr', 'ops'], selectionFor(o)).schemas);
  };

  test('names the filter that drops the schema or the name', () => {
    expect(reason({ exclude_tables_regex: '^orders$' }, 'sales', 'orders')).toBe('exclude_tables_regex');
    expect(reason({ exclude_tables_regex: '^orders$' }, 'sales', 'customers')).toBeNull();
    expect(reason({ include_tables_regex: '^v_' }, 'sales', 'orders')).toBe('include_tables_regex');
    expect(reason({ exclude_schemas: ['hr'] }, 'hr', 'employees')).toBe('exclude_schemas');
    expect(reason({ include_schemas: ['sales'] }, 'hr', 'employees')).toBe('include_schemas');
    const objects = [{ schema: 'sales', name: 'v_orders', type: 'view' }];
    expect(reason({ include_objects: objects }, 'sales', 'orders')).toBe('include_objects');
    expect(reason({ include_objects: objects }, 'hr', 'employees')).toBe('include_objects');
    expect(reason({ include_objects: objects }, 'sales', 'v_orders')).toBeNull();
  });
});

test('a column named like a left-out table is not a dependency; the table after FROM is', () => {
  const objs = [
    table('sales', 'region', 'exclude_tables_regex'),
    table('sales', 'orders'),
    view('sales', 'by_region', 'SELECT region, count(*) FROM prod.sales.orders GROUP BY region'),
    view('sales', 'regions', 'SELECT * FROM region'),
  ];
  const plan = planViewDependencies({
    catalog: 'prod',
    objects: objs,
    roots: ['sales.by_region', 'sales.regions'],
    includeDependencies: false,
  });
  expect(plan.skipped.map((s) => s.key)).toEqual(['sales.regions']);
});
