import { databricksBackend, warehouseRequest } from '../../activities/warehouses/databricks';
import { createDatabricksWorkspace, type DatabricksWorkspace } from '../../platform/databricks';
import type { WarehouseRow } from '../../store/warehouses/repo';
import { RecordingSqlSession } from '../databricks/recording-session';
import { StubServer } from '../databricks/stub-server';

const TOKEN = 'dapi0123456789abcdef0123456789abcdef';
const row: WarehouseRow = {
  id: 'abc123',
  name: 'etl',
  location: 'databricks',
  clusterSize: 'Small',
  minNumClusters: 1,
  maxNumClusters: 3,
  autoStopMins: 10,
  warehouseType: 'PRO',
  enableServerlessCompute: true,
  enablePhoton: true,
  channel: 'CHANNEL_NAME_CURRENT',
  tags: [{ key: 'team', value: 'data' }],
  state: 'STOPPED',
  numClusters: 0,
  creatorName: null,
  createdAt: new Date(),
  updatedAt: new Date(),
};

let stub: StubServer;
let ws: DatabricksWorkspace;
beforeEach(async () => {
  stub = await new StubServer().start();
  ws = await createDatabricksWorkspace({
    host: stub.url,
    warehouseId: 'wh1',
    auth: { type: 'pat', token: TOKEN },
    sqlSession: new RecordingSqlSession(),
    retry: { baseDelayMs: 20, maxDelayMs: 50 },
  });
});
afterEach(() => stub.stop());

/** GET answers `states` in turn (the last one repeats). */
const states =
  (...s: string[]) =>
  (_req: unknown, attempt: number) => ({
    json: { id: row.id, state: s[Math.min(attempt, s.length) - 1], min_num_clusters: 1 },
  });

test('create posts the Databricks fields, then polls until RUNNING', async () => {
  stub.on('POST /api/2.0/sql/warehouses', { json: { id: row.id } });
  stub.on(`GET /api/2.0/sql/warehouses/${row.id}`, states('STARTING', 'STARTING', 'RUNNING'));
  const w = await ws.rest.warehouses.create(warehouseRequest(row), { intervalMs: 1 });
  expect(w.state).toBe('RUNNING');
  expect(stub.paths()).toEqual([
    'POST /api/2.0/sql/warehouses',
    `GET /api/2.0/sql/warehouses/${row.id}`,
    `GET /api/2.0/sql/warehouses/${row.id}`,
    `GET /api/2.0/sql/warehouses/${row.id}`,
  ]);
  expect(JSON.parse(stub.seen[0].body.toString())).toEqual({
    name: 'etl',
    cluster_size: 'Small',
    min_num_clusters: 1,
    max_num_clusters: 3,
    auto_stop_mins: 10,
    warehouse_type: 'PRO',
    enable_serverless_compute: true,
    enable_photon: true,
    channel: { name: 'CHANNEL_NAME_CURRENT' },
    tags: { custom_tags: [{ key: 'team', value: 'data' }] },
  });
});

test('start, stop, edit and delete: each call, then GET until the target state', async () => {
  const backend = databricksBackend(ws.rest.warehouses, { intervalMs: 1 });
  stub.on(`POST /api/2.0/sql/warehouses/${row.id}/start`, { json: {} });
  stub.on(`GET /api/2.0/sql/warehouses/${row.id}`, states('STARTING', 'RUNNING'));
  expect(await backend.start(row)).toBe(1);
  expect(stub.paths()).toEqual([
    `POST /api/2.0/sql/warehouses/${row.id}/start`,
    `GET /api/2.0/sql/warehouses/${row.id}`,
    `GET /api/2.0/sql/warehouses/${row.id}`,
  ]);

  stub.seen.length = 0;
  stub.on(`POST /api/2.0/sql/warehouses/${row.id}/stop`, { json: {} });
  stub.on(`GET /api/2.0/sql/warehouses/${row.id}`, (_r, n) => ({
    json: { id: row.id, state: n >= 5 ? 'STOPPED' : 'STOPPING' },
  }));
  await backend.stop(row);
  expect(stub.paths()[0]).toBe(`POST /api/2.0/sql/warehouses/${row.id}/stop`);
  expect(
    stub
      .paths()
      .slice(1)
      .every((p) => p === `GET /api/2.0/sql/warehouses/${row.id}`),
  ).toBe(true);

  stub.seen.length = 0;
  stub.on(`POST /api/2.0/sql/warehouses/${row.id}/edit`, { json: {} });
  await backend.edit({ ...row, autoStopMins: 30 });
  expect(stub.paths()).toEqual([`POST /api/2.0/sql/warehouses/${row.id}/edit`]);
  expect(JSON.parse(stub.seen[0].body.toString())).toMatchObject({ auto_stop_mins: 30, cluster_size: 'Small' });

  stub.seen.length = 0;
  stub.on(`DELETE /api/2.0/sql/warehouses/${row.id}`, { json: {} });
  stub.on(`GET /api/2.0/sql/warehouses/${row.id}`, {
    status: 404,
    json: { error_code: 'RESOURCE_DOES_NOT_EXIST', message: 'gone' },
  });
  await backend.remove(row);
  expect(stub.paths()).toEqual([`DELETE /api/2.0/sql/warehouses/${row.id}`, `GET /api/2.0/sql/warehouses/${row.id}`]);
});
