import { seedMiniCatalog } from './fixtures/mini-catalog';
import { createHarness, type Harness } from '../helpers/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('clone-options');
}, 60_000);
afterAll(async () => h?.teardown());

const orders = (catalog: string) => ({ catalog, schema: 'sales', name: 'orders' });

test('max_tables is checked between schemas: the job ends aborted with the reason, later schemas untouched', async () => {
  const root = h.newRoot();
  const ws = await h.open(root);
  await seedMiniCatalog(ws);
  const input = h.jobInput(root, { max_tables: 1, max_workers: 1 });
  const summary = await h.withWorker(() => h.run(input));
  expect(summary).toMatchObject({
    status: 'aborted',
    tables_cloned: 1,
    error: expect.stringMatching(/^max_tables reached: 1 tables touched, limit 1/),
  });
  // Schemas run in name order with one worker: hr first, so sales never started.
  expect(await ws.tableExists(orders('dev'))).toBe(false);
  expect((await h.events(input.jobId)).at(-1)).toMatchObject({ event: 'completed', status: 'aborted' });
});

test('where_clauses make a DEEP clone a filtered select-based copy', async () => {
  const root = h.newRoot();
  const ws = await h.open(root);
  await seedMiniCatalog(ws);
  const summary = await h.withWorker(() =>
    h.run(h.jobInput(root, { include_schemas: ['sales'], where_clauses: { orders: "region = 'EU'" } })),
  );
  expect(summary).toMatchObject({ status: 'completed', tables_cloned: 1 });
  const rows = await ws.query("SELECT count(*) AS n, count_if(region <> 'EU') AS other FROM dev.sales.orders");
  expect(rows.rows[0]).toEqual({ n: 20, other: 0 });
});

test('include_objects clones only the named table (and views/functions named alike)', async () => {
  const root = h.newRoot();
  const ws = await h.open(root);
  await seedMiniCatalog(ws, 'prod', { extraTables: 3 });
  const summary = await h.withWorker(() =>
    h.run(h.jobInput(root, { include_objects: [{ schema: 'sales', name: 't001', type: 'table' }] })),
  );
  expect(summary).toMatchObject({ status: 'completed', tables_cloned: 1, views_cloned: 0 });
  expect((await ws.listTables('dev', 'sales')).map((t) => t.name)).toEqual(['t001']);
  expect((await ws.listSchemas('dev')).map((s) => s.name)).toEqual(['sales']);
});

test('as_of_version clones the table as it was at that version', async () => {
  const root = h.newRoot();
  const ws = await h.open(root);
  await seedMiniCatalog(ws);
  const v = (await ws.describeTable(orders('prod'))).version!;
  await ws.deleteWhere(orders('prod'), 'id > 10');
  await h.withWorker(() => h.run(h.jobInput(root, { include_schemas: ['sales'], as_of_version: v })));
  expect(await ws.tableChecksum(orders('dev'))).toBe(await ws.tableChecksum(orders('prod'), { version: v }));
});

test('target_format ICEBERG sets the UniForm properties on the Delta copies', async () => {
  const root = h.newRoot();
  const ws = await h.open(root);
  await seedMiniCatalog(ws);
  const summary = await h.withWorker(() =>
    h.run(h.jobInput(root, { include_schemas: ['sales'], target_format: 'ICEBERG' })),
  );
  expect(summary).toMatchObject({ status: 'completed', tables_cloned: 1 });
  expect((await ws.tableDetail(orders('dev'))).properties).toMatchObject({
    'delta.universalFormat.enabledFormats': 'iceberg',
    'delta.enableIcebergCompatV2': 'true',
  });
});
