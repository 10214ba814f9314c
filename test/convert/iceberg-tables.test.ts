import { readdirSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Workspace } from '../../platform/port';
import { LocalWorkspace } from '../../platform/local/workspace';
import { asText, pyiceberg } from './oracles';

let root: string;
let ws: Workspace;
beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-iceberg-'));
  ws = new LocalWorkspace({ root, user: 'lakeward' });
  await ws.createCatalog({ name: 'lake' });
  await ws.createSchema({ catalog: 'lake', name: 'ice' });
});
afterAll(async () => {
  await ws.close();
  rmSync(root, { recursive: true, force: true });
});

test('an ICEBERG table is Parquet plus Iceberg v2 metadata that pyiceberg opens, snapshot by snapshot', async () => {
  const ref = { catalog: 'lake', schema: 'ice', name: 'orders' };
  await ws.createTable({
    ref,
    format: 'ICEBERG',
    columns: [
      { name: 'id', type: 'bigint', nullable: false },
      { name: 'customer', type: 'string' },
      { name: 'amount', type: 'decimal(10,2)' },
      { name: 'day', type: 'date' },
    ],
  });
  await ws.insertRows(ref, [
    { id: 1, customer: 'ana', amount: '10.50', day: '2026-01-01' },
    { id: 2, customer: 'bo', amount: '7.25', day: '2026-01-02' },
  ]);
  await ws.insertRows(ref, [{ id: 3, customer: null, amount: '1.00', day: '2026-01-03' }]);
  const dir = (await ws.describeTable(ref)).location!;
  expect(readdirSync(path.join(dir, 'metadata')).filter((n) => n.endsWith('.avro')).length).toBe(4);

  const ours = (await ws.query('SELECT id, customer, amount, day FROM lake.ice.orders')).rows;
  const theirs = pyiceberg(dir);
  expect(asText(theirs.rows)).toEqual(asText(ours));
  expect(theirs.rows).toHaveLength(3);
  expect(theirs.schema).toEqual([
    { id: 1, name: 'id', type: 'long', required: true },
    { id: 2, name: 'customer', type: 'string', required: false },
    { id: 3, name: 'amount', type: 'decimal(10, 2)', required: false },
    { id: 4, name: 'day', type: 'date', required: false },
  ]);

  // Time travel by snapshot id, in our SQL and in pyiceberg.
  const [first, second] = theirs.snapshots;
  const v1 = (await ws.query(`SELECT id FROM lake.ice.orders VERSION AS OF ${first} ORDER BY id`)).rows;
  expect(v1.map((r) => Number(r.id))).toEqual([1, 2]);
  expect(pyiceberg(dir, first).rows.map((r) => r.id)).toEqual(['1', '2']);
  expect(pyiceberg(dir, second).rows).toHaveLength(3);

  // An overwrite is a new snapshot holding only the new rows; the old ones stay readable by snapshot.
  await ws.overwriteQuery(ref, 'SELECT 9 AS id, "zed" AS customer, 2.5 AS amount, DATE "2026-02-01" AS day');
  const after = pyiceberg(dir);
  expect(asText(after.rows)).toEqual([{ id: '9', customer: 'zed', amount: '2.5', day: '2026-02-01' }]);
  expect(after.snapshots).toHaveLength(3);
  expect(pyiceberg(dir, second).rows).toHaveLength(3);
});

test('identity-partitioned ICEBERG tables: key=value folders, partition values in the manifests', async () => {
  const ref = { catalog: 'lake', schema: 'ice', name: 'events' };
  await ws.createTable({
    ref,
    format: 'ICEBERG',
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'region', type: 'string' },
    ],
    partitionColumns: ['region'],
  });
  await ws.insertRows(ref, [
    { id: 1, region: 'eu' },
    { id: 2, region: 'us' },
    { id: 3, region: 'eu' },
  ]);
  const dir = (await ws.describeTable(ref)).location!;
  const theirs = pyiceberg(dir);
  const ours = (await ws.query('SELECT id, region FROM lake.ice.events')).rows;
  expect(asText(theirs.rows)).toEqual(asText(ours));
  expect(ours).toHaveLength(3);
  expect(readdirSync(path.join(dir, 'data')).sort()).toEqual(['region=eu', 'region=us']);
});
