import { createDatabricksWorkspace, type DatabricksWorkspace } from '../../platform/databricks';
import { RecordingSqlSession, type Script } from './recording-session';
import { StubServer } from './stub-server';

const IS = '`main`.information_schema';
const SALES = '`main`.`sales`.`orders`';

async function workspace(
  script: Script,
  stub: StubServer,
): Promise<{ ws: DatabricksWorkspace; rec: RecordingSqlSession }> {
  const rec = new RecordingSqlSession(script);
  const ws = await createDatabricksWorkspace({
    host: stub.url,
    warehouseId: 'wh1',
    auth: { type: 'pat', token: 'dapi0123' },
    sqlSession: rec,
  });
  return { ws, rec };
}

describe('statement sequences sent to the warehouse', () => {
  const stub = new StubServer();
  beforeAll(() => stub.start());
  afterAll(() => stub.stop());

  it('discovers a catalog: schemas, then tables, views, functions, volumes, then each table in detail', async () => {
    const { ws, rec } = await workspace(
      [
        [
          `SELECT catalog_name, schema_name`,
          { rows: [{ catalog_name: 'main', schema_name: 'sales', schema_owner: 'ana', comment: null }] },
        ],
        [
          `SELECT table_catalog, table_schema, table_name, table_type, data_source_format, table_owner, comment, created, last_altered FROM ${IS}.tables WHERE table_schema = 'sales' AND table_type`,
          {
            rows: [
              {
                table_catalog: 'main',
                table_schema: 'sales',
                table_name: 'orders',
                table_type: 'MANAGED',
                data_source_format: 'DELTA',
                table_owner: 'ana',
                comment: 'Orders',
                created: '2026-01-01T00:00:00Z',
                last_altered: null,
              },
            ],
          },
        ],
        [
          `SELECT table_catalog, table_schema, table_name, table_type, data_source_format, table_owner, comment, created, last_altered FROM ${IS}.tables WHERE table_schema = 'sales' AND table_name = 'orders'`,
          {
            rows: [
              {
                table_catalog: 'main',
                table_schema: 'sales',
                table_name: 'orders',
                table_type: 'MANAGED',
                data_source_format: 'DELTA',
                table_owner: 'ana',
                comment: 'Orders',
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
                view_definition: "SELECT * FROM main.sales.orders WHERE region = 'EU'",
                table_owner: 'ana',
                comment: null,
              },
            ],
          },
        ],
        [
          `SELECT routine_catalog`,
          {
            rows: [
              {
                routine_catalog: 'main',
                routine_schema: 'sales',
                routine_name: 'mask_ssn',
                specific_name: 'mask_ssn',
                full_data_type: 'STRING',
                routine_definition: "'***'",
                comment: null,
              },
            ],
          },
        ],
        [
          `SELECT specific_name`,
          {
            rows: [{ specific_name: 'mask_ssn', parameter_name: 'ssn', full_data_type: 'STRING', ordinal_position: 1 }],
          },
        ],
        [`SELECT volume_catalog`, { rows: [] }],
        [
          `SELECT column_name`,
          {
            rows: [
              {
                column_name: 'id',
                full_data_type: 'bigint',
                is_nullable: 'NO',
                comment: null,
                ordinal_position: 1,
                partition_index: null,
              },
              {
                column_name: 'region',
                full_data_type: 'string',
                is_nullable: 'YES',
                comment: 'ISO code',
                ordinal_position: 2,
                partition_index: 0,
              },
            ],
          },
        ],
        [
          `DESCRIBE DETAIL`,
          {
            rows: [
              {
                format: 'delta',
                location: 's3://b/orders',
                partitionColumns: ['region'],
                numFiles: 3,
                sizeInBytes: 4096,
                properties: { 'delta.enableChangeDataFeed': 'true' },
                minReaderVersion: 1,
                minWriterVersion: 4,
              },
            ],
          },
        ],
        [
          `DESCRIBE HISTORY`,
          {
            rows: [
              {
                version: 7n,
                timestamp: new Date('2026-02-01T00:00:00Z'),
                operation: 'WRITE',
                operationParameters: { mode: 'Append' },
                operationMetrics: { numOutputRows: '10' },
                userName: 'ana',
              },
            ],
          },
        ],
      ],
      stub,
    );

    const schemas = await ws.listSchemas('main');
    const tables = await ws.listTables('main', 'sales');
    const views = await ws.listViews('main', 'sales');
    const functions = await ws.listFunctions('main', 'sales');
    const volumes = await ws.listVolumes('main', 'sales');
    const described = await ws.describeTable(tables[0]);

    expect(rec.statements).toEqual([
      `SELECT catalog_name, schema_name, schema_owner, comment FROM ${IS}.schemata WHERE schema_name <> 'information_schema' ORDER BY schema_name`,
      `SELECT table_catalog, table_schema, table_name, table_type, data_source_format, table_owner, comment, created, last_altered FROM ${IS}.tables WHERE table_schema = 'sales' AND table_type NOT IN ('VIEW', 'MATERIALIZED_VIEW', 'STREAMING_TABLE', 'FOREIGN') ORDER BY table_name`,
      `SELECT v.table_catalog, v.table_schema, v.table_name, v.view_definition, t.table_owner, t.comment FROM ${IS}.views v JOIN ${IS}.tables t ON t.table_schema = v.table_schema AND t.table_name = v.table_name WHERE v.table_schema = 'sales' ORDER BY v.table_name`,
      `SELECT routine_catalog, routine_schema, routine_name, specific_name, full_data_type, routine_definition, comment FROM ${IS}.routines WHERE routine_schema = 'sales' AND routine_body = 'SQL' ORDER BY routine_name`,
      `SELECT specific_name, parameter_name, full_data_type, ordinal_position FROM ${IS}.parameters WHERE specific_schema = 'sales' ORDER BY specific_name, ordinal_position`,
      `SELECT volume_catalog, volume_schema, volume_name, volume_type, storage_location, volume_owner, comment FROM ${IS}.volumes WHERE volume_schema = 'sales' ORDER BY volume_name`,
      `SELECT table_catalog, table_schema, table_name, table_type, data_source_format, table_owner, comment, created, last_altered FROM ${IS}.tables WHERE table_schema = 'sales' AND table_name = 'orders'`,
      `SELECT column_name, full_data_type, is_nullable, comment, ordinal_position, partition_index FROM ${IS}.columns WHERE table_schema = 'sales' AND table_name = 'orders' ORDER BY ordinal_position`,
      `DESCRIBE DETAIL ${SALES}`,
      `DESCRIBE HISTORY ${SALES} LIMIT 1`,
    ]);
    expect(schemas).toEqual([{ catalog: 'main', name: 'sales', owner: 'ana', comment: null, properties: {} }]);
    expect(tables[0]).toMatchObject({
      name: 'orders',
      tableType: 'MANAGED',
      format: 'DELTA',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(views[0].definition).toBe("SELECT * FROM main.sales.orders WHERE region = 'EU'");
    expect(functions[0]).toMatchObject({
      name: 'mask_ssn',
      parameters: 'ssn STRING',
      returnType: 'STRING',
      body: "'***'",
    });
    expect(volumes).toEqual([]);
    expect(described).toMatchObject({
      version: 7,
      numFiles: 3,
      sizeBytes: 4096,
      location: 's3://b/orders',
      partitionColumns: ['region'],
      properties: { 'delta.enableChangeDataFeed': 'true' },
      columns: [
        { name: 'id', type: 'bigint', nullable: false, comment: null, position: 1 },
        { name: 'region', type: 'string', nullable: true, comment: 'ISO code', position: 2 },
      ],
    });
  });

  it('restores a table to a version and reports the six restore metrics', async () => {
    const { ws, rec } = await workspace(
      [
        [
          `RESTORE TABLE`,
          {
            rows: [
              {
                table_size_after_restore: 100n,
                num_of_files_after_restore: 2,
                num_removed_files: 1,
                num_restored_files: 1,
                removed_files_size: 40,
                restored_files_size: 50,
              },
            ],
          },
        ],
      ],
      stub,
    );
    const metrics = await ws.restoreTable({ catalog: 'main', schema: 'sales', name: 'orders' }, { version: 3 });
    expect(rec.statements).toEqual([`RESTORE TABLE ${SALES} TO VERSION AS OF 3`]);
    expect(metrics).toEqual({
      tableSizeAfterRestore: 100,
      numOfFilesAfterRestore: 2,
      numRemovedFiles: 1,
      numRestoredFiles: 1,
      removedFilesSize: 40,
      restoredFilesSize: 50,
    });
  });

  it('vacuums: reads the location, lists candidates with a dry run, then vacuums with the same retention', async () => {
    const { ws, rec } = await workspace(
      [
        [`DESCRIBE DETAIL`, { rows: [{ location: 's3://b/orders/' }] }],
        [
          `VACUUM ${SALES} RETAIN 200 HOURS DRY RUN`,
          {
            rows: [{ path: 's3://b/orders/part-0001.parquet' }, { path: 's3://b/orders/region=EU/part-0002.parquet' }],
          },
        ],
        [`VACUUM`, { rows: [{ path: 's3://b/orders' }] }],
      ],
      stub,
    );
    const result = await ws.vacuumTable({ catalog: 'main', schema: 'sales', name: 'orders' }, { retentionHours: 200 });
    expect(rec.statements).toEqual([
      `DESCRIBE DETAIL ${SALES}`,
      `VACUUM ${SALES} RETAIN 200 HOURS DRY RUN`,
      `VACUUM ${SALES} RETAIN 200 HOURS`,
    ]);
    expect(result).toEqual({ dryRun: false, files: ['part-0001.parquet', 'region=EU/part-0002.parquet'], bytes: 0 });
  });

  it('a dry-run vacuum deletes nothing', async () => {
    const { ws, rec } = await workspace([[`DESCRIBE DETAIL`, { rows: [{ location: 's3://b/orders' }] }]], stub);
    const result = await ws.vacuumTable({ catalog: 'main', schema: 'sales', name: 'orders' }, { dryRun: true });
    expect(rec.statements).toEqual([`DESCRIBE DETAIL ${SALES}`, `VACUUM ${SALES} DRY RUN`]);
    expect(result).toEqual({ dryRun: true, files: [], bytes: 0 });
  });

  it('refuses writes in the SQL workbench before anything reaches the warehouse', async () => {
    const { ws, rec } = await workspace([], stub);
    await expect(ws.query('DROP TABLE main.sales.orders')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(ws.query('SELECT 1; DROP TABLE x')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(ws.query('/* hi */ INSERT INTO t VALUES (1)')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await ws.query("-- note\nSELECT ';' AS semi");
    expect(rec.statements).toEqual(["SELECT ';' AS semi"]);
  });
});
