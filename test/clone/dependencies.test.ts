import type { Workspace } from '../../platform/port';
import { seedMiniCatalog } from './fixtures/mini-catalog';
import { createHarness, type Harness } from '../helpers/harness';

/**
 * Views whose dependencies the clone's filters leave out: skipped with a warning naming the dependency, or
 * with include_dependencies pulled in. The mini catalog has sales.eu_orders reading sales.orders and
 * sales.big_eu_orders reading sales.eu_orders; these tests add a view reading hr (another schema) and one
 * reading another catalog.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness('dependencies');
}, 60_000);
afterAll(async () => h?.teardown());

async function seed(): Promise<{ root: string; ws: Workspace }> {
  const root = h.newRoot();
  const ws = h.open(root);
  await seedMiniCatalog(ws);
  await ws.createCatalog({ name: 'ref', ifNotExists: true });
  await ws.createSchema({ catalog: 'ref', name: 'lookup', ifNotExists: true });
  const regions = { catalog: 'ref', schema: 'lookup', name: 'orders' };
  await ws.createTable({ ref: regions, columns: [{ name: 'region', type: 'string' }] });
  await ws.insertRows(regions, [{ region: 'EU' }, { region: 'US' }]);
  await ws.createView({
    ref: { catalog: 'prod', schema: 'sales', name: 'v_regions' },
    definition: 'SELECT region FROM ref.lookup.orders',
  });
  await ws.createView({
    ref: { catalog: 'prod', schema: 'sales', name: 'v_staff' },
    definition: 'SELECT name FROM prod.hr.employees',
  });
  return { root, ws };
}

const viewNames = async (ws: Workspace, schema: string) =>
  (await ws.listViews('dev', schema)).map((v) => v.name).sort();

const ORDERS_SKIP =
  'view sales.eu_orders skipped: it reads sales.orders, which this clone leaves out (exclude_tables_regex)';
const BIG_SKIP =
  'view sales.big_eu_orders skipped: it reads sales.eu_orders, a view skipped because it reads sales.orders, ' +
  'which this clone leaves out (exclude_tables_regex)';
const STAFF_SKIP = 'view sales.v_staff skipped: it reads hr.employees, which this clone leaves out (exclude_schemas)';

test('excluding a table views read completes the job with those views skipped and named in warnings', async () => {
  const { root, ws } = await seed();
  const input = h.jobInput(root, { exclude_tables_regex: '^orders$', include_schemas: ['sales'] });
  const summary = await h.withWorker(() => h.run(input));

  expect(summary).toMatchObject({ status: 'completed', tables_cloned: 0, objects_failed: 0, views_cloned: 1 });
  // include_schemas leaves hr out: v_staff is skipped too; v_regions reads another catalog and is cloned.
  expect(summary.tables_skipped).toBe(3);
  expect(summary.warnings).toEqual(
    expect.arrayContaining([ORDERS_SKIP, BIG_SKIP, STAFF_SKIP.replace('exclude_schemas', 'include_schemas')]),
  );
  expect(await viewNames(ws, 'sales')).toEqual(['v_regions']);
  expect((await ws.query('SELECT count(*) AS n FROM dev.sales.v_regions')).rows[0].n).toBe(2);

  const events = await h.events(input.jobId);
  expect(events.filter((e) => e.event === 'warning').map((e) => e.message)).toEqual(
    expect.arrayContaining([ORDERS_SKIP, BIG_SKIP]),
  );
  const skippedViews = events.filter((e) => e.event === 'table_finished' && e.kind === 'view');
  expect(skippedViews.map((e) => [e.table, e.status]).sort()).toEqual([
    ['big_eu_orders', 'skipped'],
    ['eu_orders', 'skipped'],
    ['v_staff', 'skipped'],
  ]);
  expect(events.at(-1)).toMatchObject({ event: 'completed', status: 'completed' });
});

test('include_dependencies clones the left-out tables and views so the views work in the destination', async () => {
  const { root, ws } = await seed();
  const input = h.jobInput(root, {
    exclude_tables_regex: '^(orders|eu_orders)$',
    exclude_schemas: ['hr'],
    include_dependencies: true,
  });
  const summary = await h.withWorker(() => h.run(input));

  expect(summary).toMatchObject({ status: 'completed', objects_failed: 0, tables_failed: 0, tables_skipped: 0 });
  expect(summary.tables_cloned).toBe(1); // sales.orders, planned with the sales tables
  expect(summary.warnings).toContainEqual(
    'include_dependencies: views of schema sales read objects the filters leave out; pulled into the clone: ' +
      'table sales.orders (exclude_tables_regex, read by sales.eu_orders), view sales.eu_orders (exclude_tables_regex, read by sales.big_eu_orders), ' +
      'table hr.employees (exclude_schemas, read by sales.v_staff)',
  );
  expect(await viewNames(ws, 'sales')).toEqual(['big_eu_orders', 'eu_orders', 'v_regions', 'v_staff']);
  const big = await ws.query('SELECT count(*) AS n FROM dev.sales.big_eu_orders');
  const bigSource = await ws.query('SELECT count(*) AS n FROM prod.sales.big_eu_orders');
  expect(big.rows[0].n).toBe(bigSource.rows[0].n);
  expect(Number(big.rows[0].n)).toBeGreaterThan(0);
  expect((await ws.query('SELECT name FROM dev.sales.v_staff ORDER BY name')).rows).toEqual([
    { name: 'ada' },
    { name: 'alan' },
  ]);
  // hr itself stays out of the clone apart from the one table the view needs.
  expect((await ws.listTables('dev', 'hr')).map((t) => t.name)).toEqual(['employees']);
  expect(await viewNames(ws, 'hr')).toEqual([]);
});

test('the dry run lists each view it would skip', async () => {
  const { root } = await seed();
  const input = h.jobInput(root, { exclude_tables_regex: '^orders$', dry_run: true });
  const summary = await h.withWorker(() => h.run(input));

  const plan = summary.plan!;
  expect(plan).toEqual(expect.arrayContaining([`-- warning: ${ORDERS_SKIP}`, `-- warning: ${BIG_SKIP}`]));
  expect(plan.some((l) => l.startsWith('CREATE OR REPLACE VIEW `dev`.`sales`.`eu_orders`'))).toBe(false);
  expect(plan).toContain('CREATE OR REPLACE VIEW `dev`.`sales`.`v_regions` AS SELECT region FROM ref.lookup.orders');
  expect(plan).toContain('CREATE OR REPLACE VIEW `dev`.`sales`.`v_staff` AS SELECT name FROM dev.hr.employees');
});

test('include_objects naming only a view: skipped without include_dependencies, cloned with its chain with it', async () => {
  const { root, ws } = await seed();
  const include_objects = [{ schema: 'sales', name: 'big_eu_orders', type: 'view' as const }];
  const skipped = await h.withWorker(() => h.run(h.jobInput(root, { include_objects })));
  expect(skipped).toMatchObject({ status: 'completed', views_cloned: 0, tables_cloned: 0, tables_skipped: 1 });
  expect(skipped.warnings).toContain(
    'view sales.big_eu_orders skipped: it reads sales.eu_orders, which this clone leaves out (include_objects)',
  );

  const pulled = await h.withWorker(() =>
    h.run(h.jobInput(root, { include_objects, include_dependencies: true, destination_catalog: 'dev2' })),
  );
  expect(pulled).toMatchObject({ status: 'completed', tables_cloned: 1, objects_failed: 0 });
  expect((await ws.listViews('dev2', 'sales')).map((v) => v.name).sort()).toEqual(['big_eu_orders', 'eu_orders']);
  const n = async (catalog: string) =>
    (await ws.query(`SELECT count(*) AS n FROM ${catalog}.sales.big_eu_orders`)).rows[0].n;
  expect(await n('dev2')).toBe(await n('prod'));
});
