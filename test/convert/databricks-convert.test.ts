import { createDatabricksWorkspace } from '../../platform/databricks';
import { parseCreateStatement } from '../../platform/databricks/ops/storage';
import { RecordingSqlSession, type Script } from '../databricks/recording-session';
import { StubServer } from '../databricks/stub-server';

const T = '`main`.`sales`.`orders`';
const t = { catalog: 'main', schema: 'sales', name: 'orders' };

describe('conversion statements on Databricks', () => {
  const stub = new StubServer();
  beforeAll(() => stub.start());
  afterAll(() => stub.stop());

  it('sends exactly the rename, purge, CTAS USING and SHOW CREATE TABLE text', async () => {
    const script: Script = [
      [
        `SHOW CREATE TABLE ${T}`,
        {
          rows: [
            {
              createtab_stmt:
                'CREATE TABLE main.sales.orders (\n  id BIGINT GENERATED ALWAYS AS IDENTITY,\n  day DATE GENERATED ALWAYS AS (CAST(ts AS DATE)),\n  ts TIMESTAMP)\nUSING delta',
            },
          ],
        },
      ],
    ];
    const rec = new RecordingSqlSession(script);
    const ws = await createDatabricksWorkspace({
      host: stub.url,
      warehouseId: 'wh1',
      auth: { type: 'pat', token: 'dapi0123' },
      sqlSession: rec,
    });
    await ws.renameTable(t, { ...t, name: 'orders_pre_convert_20261124070000' });
    await ws.purgeDeletionVectors(t);
    await ws.createTableAs({
      ref: { ...t, name: 'orders_convert_tmp' },
      query: `SELECT * FROM ${T}`,
      format: 'ICEBERG',
    });
    const facts = await ws.conversionFacts(t);
    expect(rec.statements).toEqual([
      `ALTER TABLE ${T} RENAME TO \`main\`.\`sales\`.\`orders_pre_convert_20261124070000\``,
      `REORG TABLE ${T} APPLY (PURGE)`,
      `CREATE TABLE \`main\`.\`sales\`.\`orders_convert_tmp\` USING iceberg AS SELECT * FROM ${T}`,
      `SHOW CREATE TABLE ${T}`,
    ]);
    expect(facts).toEqual({ partitionTransforms: [], generatedColumns: ['id', 'day'] });
  });

  it('reads Iceberg hidden partitioning from PARTITIONED BY', () => {
    expect(
      parseCreateStatement(
        'CREATE TABLE c.s.t (id BIGINT, ts TIMESTAMP) USING iceberg PARTITIONED BY (bucket(16, id), days(ts), region)',
      ),
    ).toEqual({ partitionTransforms: ['bucket', 'days', 'identity'], generatedColumns: [] });
  });
});
