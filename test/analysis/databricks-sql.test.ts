import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { createDatabricksWorkspace } from '../../platform/databricks';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { RecordingSqlSession, type Script } from '../databricks/recording-session';
import { StubServer } from '../databricks/stub-server';
import { createTestStore } from '../helpers/db';

/** The analysis reads on Databricks: the system-table statements they send, as text, and their fallbacks. */
const stub = new StubServer();
let store: Store;

const DISCOVERY: Script = [
  [
    `SELECT catalog_name, catalog_owner`,
    { rows: [{ catalog_name: 'main', catalog_owner: 'ana', comment: null, created: null }] },
  ],
  [
    `SELECT catalog_name, schema_name`,
    { rows: [{ catalog_name: 'main', schema_name: 'sales', schema_owner: 'ana', comment: null }] },
  ],
  [
    `SELECT table_catalog, table_schema, table_name, table_type`,
    {
      rows: [
        {
          table_catalog: 'main',
          table_schema: 'sales',
          table_name: 'orders',
          table_type: 'MANAGED',
          data_source_format: 'DELTA',
          table_owner: 'ana',
          comment: null,
          created: null,
          last_altered: null,
        },
      ],
    },
  ],
  [
    `SELECT v.table_catalog`,
    {
      rows: [
        {
          table_catalog: 'main',
          table_schema: 'sales',
          table_name: 'eu_orders',
          view_definition: "SELECT * FROM main.sales.orders WHERE region = 'main.sales.fake'",
          table_owner: 'ana',
          comment: null,
        },
      ],
    },
  ],
];

const LINEAGE_SQL =
  'SELECT lower(source_table_full_name) AS source, lower(target_table_full_name) AS target, max(event_time) AS last_seen ' +
  "FROM system.access.table_lineage WHERE (lower(source_table_catalog) = 'main' OR lower(target_table_catalog) = 'main') " +
  'AND source_table_full_name IS NOT NULL AND target_table_full_name IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 10000';
const COLUMN_USAGE_SQL =
  "SELECT lower(source_column_name) AS column_name, lower(concat_ws('.', source_table_schema, source_table_name)) AS table_name, " +
  "count(*) AS usage_count FROM system.access.column_lineage WHERE lower(source_table_catalog) = 'main' AND " +
  "lower(source_table_schema) = 'sales' GROUP BY 1, 2 ORDER BY usage_count DESC, 2, 1 LIMIT 1000";
const TABLE_USAGE_SQL =
  "SELECT lower(concat_ws('.', source_table_schema, source_table_name)) AS table_name, count(*) AS query_count, " +
  "max(event_time) AS last_accessed FROM system.access.table_lineage WHERE lower(source_table_catalog) = 'main' " +
  'GROUP BY 1 ORDER BY query_count DESC, 1 LIMIT 3';

async function appWith(script: Script): Promise<{ app: Express; rec: RecordingSqlSession }> {
  const rec = new RecordingSqlSession(script);
  const ws = await createDatabricksWorkspace({
    host: stub.url,
    warehouseId: 'wh1',
    auth: { type: 'pat', token: 'dapi0123' },
    sqlSession: rec,
  });
  return { app: createApp(testAppDeps({ store, open: async () => ws })), rec };
}

beforeAll(async () => {
  await stub.start();
  store = await createTestStore('pglite');
});
afterAll(async () => {
  await store?.close();
  await stub.stop();
});

test('lineage reads system.access.table_lineage with this exact statement and merges it with view edges', async () => {
  const { app, rec } = await appWith([
    [
      LINEAGE_SQL,
      { rows: [{ source: 'main.sales.orders', target: 'main.gold.daily', last_seen: '2026-11-20T00:00:00Z' }] },
    ],
    ...DISCOVERY,
  ]);
  const res = await request(app).post('/api/lineage').send({ catalog: 'main', table: 'sales.orders' }).expect(200);
  expect(rec.statements).toContain(LINEAGE_SQL);
  expect(res.body.downstream).toEqual(['main.gold.daily', 'main.sales.eu_orders']);
  expect(res.body.system_lineage).toEqual({ available: true, error: null });
  // The string literal naming main.sales.fake is not a reference.
  expect(res.body.upstream).toEqual([]);
});

test('without system tables: lineage says why, column-usage and table-usage answer 200 with the fallback body', async () => {
  const missing = new Error(
    '[TABLE_OR_VIEW_NOT_FOUND] The table or view `system`.`access`.`table_lineage` cannot be found.',
  );
  const { app, rec } = await appWith([
    [LINEAGE_SQL, missing],
    [COLUMN_USAGE_SQL, new Error('[TABLE_OR_VIEW_NOT_FOUND] `system`.`access`.`column_lineage`')],
    [TABLE_USAGE_SQL, missing],
    ...DISCOVERY,
  ]);
  const l = await request(app).post('/api/lineage').send({ catalog: 'main' }).expect(200);
  expect(l.body.system_lineage).toMatchObject({
    available: false,
    error: expect.stringMatching(/TABLE_OR_VIEW_NOT_FOUND/),
  });
  expect(l.body.edges).toEqual([
    { source: 'main.sales.orders', target: 'main.sales.eu_orders', kind: 'view', job_id: null, at: null },
  ]);

  const c = await request(app)
    .post('/api/column-usage')
    .send({ catalog: 'main', schema_name: 'sales', use_system_tables: true })
    .expect(200);
  expect(rec.statements).toContain(COLUMN_USAGE_SQL);
  expect(c.body).toMatchObject({ catalog: 'main', columns: [], source: 'lakeward_query_log', fallback: true });
  expect(c.body.error).toMatch(/system tables unavailable: .*column_lineage/);

  const t = await request(app)
    .post('/api/table-usage')
    .send({ catalog: 'main', use_system_tables: true, limit: 3 })
    .expect(200);
  expect(rec.statements).toContain(TABLE_USAGE_SQL);
  expect(t.body).toMatchObject({ tables: [], source: 'lakeward_query_log', fallback: true });
});

test('with system tables: column-usage and table-usage count from them', async () => {
  const { app } = await appWith([
    [COLUMN_USAGE_SQL, { rows: [{ column_name: 'amount', table_name: 'sales.orders', usage_count: 7 }] }],
    [
      TABLE_USAGE_SQL,
      { rows: [{ table_name: 'sales.orders', query_count: 12, last_accessed: '2026-11-23T10:00:00Z' }] },
    ],
  ]);
  const c = await request(app)
    .post('/api/column-usage')
    .send({ catalog: 'main', schema_name: 'sales', use_system_tables: true })
    .expect(200);
  expect(c.body).toEqual({
    catalog: 'main',
    columns: [{ column: 'amount', table: 'sales.orders', usage_count: 7 }],
    source: 'system_tables',
    fallback: false,
    error: null,
  });
  const t = await request(app)
    .post('/api/table-usage')
    .send({ catalog: 'main', use_system_tables: true, limit: 3 })
    .expect(200);
  expect(t.body.tables).toEqual([{ table: 'sales.orders', query_count: 12, last_accessed: '2026-11-23T10:00:00Z' }]);
});

test('uc-objects: one REST GET per kind, no warehouse statement; a kind the workspace refuses is listed as unavailable', async () => {
  const UC = '/api/2.1/unity-catalog';
  stub
    .on(`GET ${UC}/metastore_summary`, {
      json: { metastore_id: 'ms-1', name: 'primary', region: 'westeurope', cloud: 'azure' },
    })
    .on(`GET ${UC}/external-locations`, {
      json: {
        external_locations: [{ name: 'landing', url: 'abfss://landing@acct.dfs.core.windows.net/', owner: 'ana' }],
      },
    })
    .on(`GET ${UC}/storage-credentials`, { json: { storage_credentials: [{ name: 'mi', owner: 'ana' }] } })
    .on(`GET ${UC}/connections`, { json: { connections: [{ name: 'pg', connection_type: 'POSTGRESQL' }] } })
    .on(`GET ${UC}/models`, { json: { registered_models: [{ name: 'churn', full_name: 'main.ml.churn' }] } })
    .on(`GET ${UC}/shares`, { json: {} })
    .on(`GET ${UC}/recipients`, {
      status: 403,
      json: { error_code: 'PERMISSION_DENIED', message: 'User is not a metastore admin' },
    });
  const { app, rec } = await appWith([]);
  const res = await request(app).get('/api/uc-objects').expect(200);
  expect(rec.statements).toEqual([]);
  expect(res.body).toEqual({
    metastore: { metastore_id: 'ms-1', name: 'primary', owner: null, region: 'westeurope', cloud: 'azure' },
    external_locations: [
      { name: 'landing', owner: 'ana', comment: null, detail: 'abfss://landing@acct.dfs.core.windows.net/' },
    ],
    storage_credentials: [{ name: 'mi', owner: 'ana', comment: null, detail: null }],
    connections: [{ name: 'pg', owner: null, comment: null, detail: 'POSTGRESQL' }],
    registered_models: [{ name: 'main.ml.churn', owner: null, comment: null, detail: null }],
    shares: [],
    recipients: [],
    unavailable: [{ kind: 'recipients', error: expect.stringMatching(/not a metastore admin/) }],
  });
});
