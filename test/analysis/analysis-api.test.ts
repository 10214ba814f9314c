import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { Workspace } from '../../platform/port';
import { jobs } from '../../store/schema';
import { testAppDeps } from '../api/deps';
import { seedMiniCatalog } from '../clone/fixtures/mini-catalog';
import { createHarness, type Harness } from '../helpers/harness';

let h: Harness;
let app: Express;
let ws: Workspace;

const post = (path: string, body: Record<string, unknown>, status = 200) =>
  request(app).post(path).send(body).expect(status);
const pair = { source_catalog: 'prod', destination_catalog: 'dev' };
const items = (catalog: string) => ({ catalog, schema: 'sales', name: 'items' });

beforeAll(async () => {
  h = await createHarness('analysis');
  const root = h.config.workspace.root;
  ws = h.open(root);
  await seedMiniCatalog(ws, 'prod');
  await ws.createTable({
    ref: items('prod'),
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'label', type: 'string' },
    ],
  });
  await ws.insertRows(items('prod'), [
    { id: 1, label: 'a' },
    { id: 2, label: 'b' },
  ]);
  const summary = await h.withWorker(() => h.run(h.jobInput(root, pair)));
  expect(summary).toMatchObject({ status: 'completed', tables_failed: 0 });
  app = createApp(testAppDeps({ store: h.store, flags: { dataDir: h.config.data_dir }, open: async () => ws }));
}, 240_000);
afterAll(() => h?.teardown());

describe('diff, validate, compare and monitor after a clone', () => {
  test('right after the clone, diff finds nothing and every table validates', async () => {
    const diff = (await post('/api/diff', pair)).body;
    expect(diff.in_sync).toBe(true);
    expect(diff.tables).toMatchObject({ only_in_source: [], only_in_dest: [], in_both: 3 });
    const v = (await post('/api/validate', { ...pair, checksum: true })).body;
    expect(v).toMatchObject({ passed: true, matched: 3, mismatched: 0, errors: 0, total_tables: 3 });
  });

  test('report exactly the introduced differences and nothing else', async () => {
    // Introduced: a new source table, a view dropped on the clone, a column added on the clone, an extra row on
    // the clone, a user property set on the clone. Listings are cached: the change is followed by invalidation.
    await ws.createTable({
      ref: { catalog: 'prod', schema: 'sales', name: 'added' },
      columns: [{ name: 'k', type: 'int' }],
    });
    await ws.dropView({ catalog: 'dev', schema: 'sales', name: 'big_eu_orders' });
    await ws.dropTable(items('dev'));
    await ws.createTable({
      ref: items('dev'),
      columns: [
        { name: 'id', type: 'bigint' },
        { name: 'label', type: 'string' },
        { name: 'extra', type: 'int' },
      ],
    });
    await ws.insertRows(items('dev'), [
      { id: 1, label: 'a', extra: 0 },
      { id: 2, label: 'b', extra: 0 },
    ]);
    const orders = { catalog: 'dev', schema: 'sales', name: 'orders' };
    await ws.insertRows(orders, [{ id: 999, region: 'EU', amount: '1.00' }]);
    await ws.setProperties(orders, { owner_team: 'platform' });
    for (const catalog of ['prod', 'dev']) await post('/api/cache/invalidate', { catalog });

    const diff = (await post('/api/diff', pair)).body;
    expect(diff.in_sync).toBe(false);
    expect(diff.tables).toMatchObject({ only_in_source: ['sales.added'], only_in_dest: [] });
    expect(diff.views).toMatchObject({ only_in_source: ['sales.big_eu_orders'], only_in_dest: [] });
    for (const kind of ['schemas', 'functions', 'volumes'])
      expect(diff[kind]).toMatchObject({ only_in_source: [], only_in_dest: [] });
    expect(diff.schema_changes).toEqual([
      { table: 'sales.items', changes: [{ column: 'extra', change: 'added', source_type: null, dest_type: 'int' }] },
    ]);

    const v = (await post('/api/validate', pair)).body;
    expect(v).toMatchObject({ passed: false, matched: 2, mismatched: 1, mismatched_tables: ['sales.orders'] });
    expect(v.tables.find((t: any) => t.table === 'orders')).toMatchObject({ source_rows: 40, target_rows: 41 });

    const c = (await post('/api/compare', pair)).body;
    const issues = Object.fromEntries(c.tables.map((t: any) => [t.table, t.issues]));
    expect(issues).toEqual({
      'hr.employees': [],
      'sales.added': ['missing_in_destination'],
      'sales.items': ['schema_drift'],
      'sales.orders': ['properties_mismatch', 'row_count_mismatch'],
    });
    const ordersRow = c.tables.find((t: any) => t.table === 'sales.orders');
    expect(ordersRow.property_differences).toEqual([{ key: 'owner_team', source: null, dest: 'platform' }]);

    const m = (
      await request(app)
        .post('/api/monitor')
        .query({ ...pair, check_counts: 'true' })
        .expect(200)
    ).body;
    const verdicts = Object.fromEntries(m.tables.map((t: any) => [t.table, t.verdict]));
    expect(verdicts).toEqual({
      'hr.employees': 'in_sync',
      'sales.added': 'missing_in_destination',
      'sales.items': 'schema_drift',
      'sales.orders': 'count_drift',
    });
    expect(m).toMatchObject({ in_sync: false, missing_objects: 2, extra_objects: 0, schema_drift: 1, count_drift: 1 });
    const noCounts = (await request(app).post('/api/monitor').query(pair).expect(200)).body;
    expect(noCounts).toMatchObject({ check_counts: false, count_drift: 0, schema_drift: 1 });
  });
});

describe('lineage, impact and dependencies', () => {
  test('lineage and impact of a table read by a view over a view list both views (and the clone)', async () => {
    const l = (await post('/api/lineage', { catalog: 'prod', table: 'sales.orders' })).body;
    expect(l.downstream).toEqual(['dev.sales.orders', 'prod.sales.big_eu_orders', 'prod.sales.eu_orders']);
    expect(l.edges).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'prod.sales.orders', target: 'prod.sales.eu_orders', kind: 'view' }),
        expect.objectContaining({ source: 'prod.sales.eu_orders', target: 'prod.sales.big_eu_orders', kind: 'view' }),
        expect.objectContaining({ source: 'prod.sales.orders', target: 'dev.sales.orders', kind: 'clone' }),
      ]),
    );
    expect(l.edges.find((e: any) => e.kind === 'clone').job_id).toMatch(/^clone-/);
    expect(l.system_lineage).toEqual({ available: false, error: expect.stringMatching(/no system lineage/) });

    const i = (await post('/api/impact', { catalog: 'prod', schema: 'sales', table: 'orders' })).body;
    expect(i.downstream_views).toEqual(['prod.sales.big_eu_orders', 'prod.sales.eu_orders']);
    expect(i.downstream_tables).toEqual(['dev.sales.orders']);
    expect(i.total_affected).toBe(3 + i.referencing_jobs.length);
    expect(i.risk_level).toBe(i.total_affected <= 9 ? 'medium' : 'high');
  });

  test('creation order puts each view after what it reads; a cycle is reported with its members', async () => {
    const o = (await post('/api/dependencies/order', { catalog: 'prod', schema_name: 'sales' })).body;
    expect(o).toEqual({
      catalog: 'prod',
      schema: 'sales',
      creation_order: ['sales.eu_orders', 'sales.big_eu_orders'],
      cycles: [],
    });
    const d = (await post('/api/dependencies/views', { catalog: 'prod', schema_name: 'sales' })).body;
    expect(d.dependencies).toEqual(
      expect.arrayContaining([
        { view: 'sales.big_eu_orders', depends_on: ['sales.eu_orders'] },
        { view: 'sales.eu_orders', depends_on: ['sales.orders'] },
      ]),
    );

    await ws.createFunction({
      ref: { catalog: 'prod', schema: 'hr', name: 'mask_twice' },
      parameters: 'ssn STRING',
      returnType: 'STRING',
      body: 'prod.hr.mask_ssn(prod.hr.mask_ssn(ssn))',
    });
    await post('/api/cache/invalidate', { catalog: 'prod' }); // listings are cached; a direct change is not seen before
    const fd = (await post('/api/dependencies/functions', { catalog: 'prod', schema_name: 'hr' })).body;
    expect(fd.dependencies).toEqual(
      expect.arrayContaining([
        { function: 'hr.mask_ssn', depends_on: [] },
        { function: 'hr.mask_twice', depends_on: ['hr.mask_ssn'] },
      ]),
    );

    await ws.createCatalog({ name: 'loop' });
    await ws.createSchema({ catalog: 'loop', name: 's' });
    const v = (name: string) => ({ catalog: 'loop', schema: 's', name });
    await ws.createView({ ref: v('a'), definition: 'SELECT 1 AS x' });
    await ws.createView({ ref: v('b'), definition: 'SELECT x FROM loop.s.a' });
    await ws.createView({ ref: v('c'), definition: 'SELECT x FROM loop.s.b' });
    await ws.createView({ ref: v('a'), definition: 'SELECT x FROM loop.s.b', replace: true });
    const loop = (await post('/api/dependencies/order', { catalog: 'loop', schema_name: 's' })).body;
    expect(loop.cycles).toEqual([['s.a', 's.b', 's.c']]);
    expect(loop.creation_order).toEqual([]);
  });
});

describe('samples', () => {
  test('a sample never exposes a masked value, and row filters apply', async () => {
    const s = (await post('/api/sample', { catalog: 'prod', schema_name: 'hr', table_name: 'employees' })).body;
    expect(s.rows.map((r: any) => r.ssn)).toEqual(['***', '***']);
    const people = { catalog: 'prod', schema: 'hr', name: 'people' };
    await ws.createTable({
      ref: people,
      columns: [
        { name: 'name', type: 'string' },
        { name: 'ssn', type: 'string' },
      ],
    });
    await ws.insertRows(people, [
      { name: 'ada', ssn: '111-22-3333' },
      { name: 'alan', ssn: '444-55-6666' },
    ]);
    await ws.createFunction({
      ref: { catalog: 'prod', schema: 'hr', name: 'only_ada' },
      parameters: 'name STRING',
      returnType: 'BOOLEAN',
      body: "name = 'ada'",
    });
    await ws.setRowFilter(people, { functionName: 'prod.hr.only_ada', columns: ['name'] });
    await ws.setColumnMask(people, { column: 'ssn', functionName: 'prod.hr.mask_ssn', usingColumns: [] });
    const f = (await post('/api/sample', { catalog: 'prod', schema_name: 'hr', table_name: 'people' })).body;
    expect(f.rows).toEqual([{ name: 'ada', ssn: '***' }]);
    const p = (
      await post('/api/preview', {
        source_catalog: 'prod',
        dest_catalog: 'dev',
        schema: 'hr',
        table: 'employees',
        limit: 5,
      })
    ).body;
    expect([...p.source.rows, ...p.destination.rows].map((r: any) => r.ssn)).toEqual(['***', '***', '***', '***']);
    const c = (await post('/api/sample/compare', { ...pair, schema_name: 'hr', table_name: 'employees' })).body;
    expect(JSON.stringify(c)).not.toMatch(/\d{3}-\d{2}-\d{4}/);
  });

  test('sample/compare marks the differing rows and cells', async () => {
    const body = { ...pair, schema_name: 'sales', table_name: 'orders', order_by: 'id', limit: 1000 };
    const c = (await post('/api/sample/compare', body)).body;
    expect(c).toMatchObject({ source_rows: 40, dest_rows: 41, differences: 1, match: false });
    expect(c.rows[40]).toMatchObject({
      source: null,
      dest: { id: 999 },
      differing_columns: ['id', 'region', 'amount'],
    });
  });

  test('limits above 1000 and hostile names or columns get a 4xx naming the field', async () => {
    const base = { catalog: 'prod', schema_name: 'hr', table_name: 'employees' };
    const cases: [string, Record<string, unknown>, number, string][] = [
      ['/api/sample', { ...base, limit: 1001 }, 400, 'body.limit'],
      ['/api/sample', { ...base, table_name: 'employees; DROP TABLE x' }, 422, 'body.table_name'],
      ['/api/sample', { ...base, schema_name: '../hr' }, 400, 'body.schema_name'],
      ['/api/sample', { ...base, catalog: 'prod\u0000' }, 400, 'body.catalog'],
      [
        '/api/sample/compare',
        { ...pair, schema_name: 'hr', table_name: 'employees', order_by: 'ssn`; --' },
        422,
        'body.order_by',
      ],
      ['/api/diff', { ...pair, destination_catalog: "dev' OR 1=1" }, 422, 'body.destination_catalog'],
      ['/api/lineage', { catalog: 'prod', table: 'a/b' }, 400, 'body.table'],
      ['/api/lineage', { catalog: 'prod', table: 'orders' }, 400, 'body.table'],
      ['/api/lineage', { catalog: 'prod', table: "sales.orders' OR '1'='1" }, 422, 'body.table'],
      ['/api/impact', { catalog: 'prod', table: 'orders' }, 400, 'body.schema'],
      ['/api/column-usage', { catalog: 'prod', schema_name: 'x\u202e' }, 400, 'body.schema_name'],
      ['/api/dependencies/order', { catalog: 'nope', schema_name: 's' }, 404, 'body.catalog'],
    ];
    for (const [path, body, status, field] of cases) {
      const res = await post(path, body, status);
      expect(res.body.error.details.map((d: any) => d.path)).toContain(field);
    }
    const monitor = await request(app)
      .post('/api/monitor')
      .query({ ...pair, source_catalog: 'a..b' })
      .expect(400);
    expect(monitor.body.error.details.map((d: any) => d.path)).toContain('query.source_catalog');
  });
});

describe('usage and pickers', () => {
  test('column-usage without system tables answers 200 with the fallback body, counted from Lakeward’s reads', async () => {
    const u = (await post('/api/column-usage', { catalog: 'prod', use_system_tables: true })).body;
    expect(u).toMatchObject({ catalog: 'prod', source: 'lakeward_query_log', fallback: true });
    expect(u.error).toMatch(/system tables unavailable/);
    expect(u.columns).toEqual(expect.arrayContaining([{ column: 'ssn', table: 'hr.employees', usage_count: 3 }]));
    const t = (await post('/api/table-usage', { catalog: 'prod', limit: 2 })).body;
    expect(t).toMatchObject({ source: 'lakeward_query_log', fallback: false, error: null });
    expect(t.tables.map((x: any) => [x.table, x.query_count])).toEqual([
      ['hr.employees', 3],
      ['hr.people', 1],
    ]);
  });

  test('catalog, schema and table pickers', async () => {
    const cats = (await request(app).get('/api/catalogs').expect(200)).body.catalogs.map((c: any) => c.name);
    expect(cats).toEqual(expect.arrayContaining(['prod', 'dev', 'loop']));
    const schemas = (await request(app).get('/api/catalogs/prod/schemas').expect(200)).body.schemas.map(
      (s: any) => s.name,
    );
    expect(schemas).toEqual(expect.arrayContaining(['hr', 'sales']));
    const tables = (await request(app).get('/api/catalogs/prod/schemas/sales/tables').expect(200)).body.tables;
    expect(tables).toEqual(expect.arrayContaining([{ name: 'eu_orders', type: 'VIEW', comment: null }]));
    await request(app).get('/api/catalogs/nope/schemas').expect(404);
    const uc = (await request(app).get('/api/uc-objects').expect(200)).body;
    expect(uc).toMatchObject({
      metastore: { metastore_id: 'local' },
      external_locations: [],
      shares: [],
      unavailable: [],
    });
  });
});

test('job metrics, catalog health and dashboard stats come from job history', async () => {
  const t = (s: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, s));
  const row = {
    jobType: 'clone',
    sourceCatalog: 'hist_src',
    destinationCatalog: 'hist_dst',
    createdAt: t(0),
    startedAt: t(0),
  };
  await h.store.db.insert(jobs).values([
    {
      ...row,
      jobId: 'clone-hist-1',
      status: 'completed',
      completedAt: t(10),
      summary: { tables_cloned: 4, bytes_copied: 800 },
    },
    {
      ...row,
      jobId: 'clone-hist-2',
      status: 'failed',
      completedAt: t(10),
      summary: { tables_cloned: 0, bytes_copied: 0 },
    },
  ]);
  const m = (await request(app).get('/api/monitor/metrics').expect(200)).body;
  expect(m).toMatchObject({ finished_jobs: 2, failed_jobs: 1, failure_rate: 0.5 });
  expect(m.throughput).toMatchObject({ tables_per_second: 0.2, bytes_per_second: 40 });
  const health = (await request(app).get('/api/catalog-health').expect(200)).body.catalogs;
  expect(health.find((c: any) => c.catalog === 'hist_dst')).toMatchObject({
    total: 2,
    succeeded: 1,
    failed: 1,
    score: 50,
  });
  const d = (await request(app).get('/api/dashboard/stats').expect(200)).body;
  expect(d).toMatchObject({ total_jobs: 2, by_status: { completed: 1, failed: 1 }, tables_copied: 4 });
  const i = (await post('/api/impact', { catalog: 'hist_src' }, 404)).body;
  expect(i.error.details[0].path).toBe('body.catalog');
});
