import { createDatabricksWorkspace } from '../../platform/databricks';
import { DATABRICKS_STORAGE_NOTE } from '../../platform/databricks/ops/storage';
import { RecordingSqlSession, type Script } from '../databricks/recording-session';
import { StubServer } from '../databricks/stub-server';

const SALES = '`main`.`sales`.`orders`';

describe('storage metrics on Databricks: DESCRIBE DETAIL and VACUUM DRY RUN, said plainly where bytes are unknown', () => {
  const stub = new StubServer();
  beforeAll(() => stub.start());
  afterAll(() => stub.stop());

  it('sends exactly these statements and reports active bytes, vacuumable files and no invented figures', async () => {
    const script: Script = [
      [`DESCRIBE DETAIL ${SALES}`, { rows: [{ location: 's3://b/orders', sizeInBytes: 5000, numFiles: 4 }] }],
      [`VACUUM ${SALES} DRY RUN`, { rows: [{ path: 's3://b/orders/a.parquet' }, { path: 's3://b/orders/b.parquet' }] }],
    ];
    const rec = new RecordingSqlSession(script);
    const ws = await createDatabricksWorkspace({
      host: stub.url,
      warehouseId: 'wh1',
      auth: { type: 'pat', token: 'dapi0123' },
      sqlSession: rec,
    });
    const m = await ws.storageMetrics({ catalog: 'main', schema: 'sales', name: 'orders' });
    expect(rec.statements).toEqual([`DESCRIBE DETAIL ${SALES}`, `VACUUM ${SALES} DRY RUN`]);
    expect(m).toEqual({
      retentionHours: null,
      totalBytes: 5000,
      activeBytes: 5000,
      timeTravelBytes: null,
      vacuumableBytes: null,
      numTotalFiles: 6,
      numActiveFiles: 4,
      numTimeTravelFiles: null,
      numVacuumableFiles: 2,
      exact: false,
      note: DATABRICKS_STORAGE_NOTE,
    });
  });
});
