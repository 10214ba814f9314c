import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Workspace } from '../../platform/port';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';
import { asText, pyiceberg } from './oracles';

const PYTHON = path.resolve(__dirname, '../../.venv/bin/python');
let root: string;
let ws: Workspace;
let store: Store;
let app: Express;
const ref = { catalog: 'u', schema: 's', name: 'orders' };

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-uniform-'));
  ws = new LocalWorkspace({ root, user: 'lakeward' });
  await ws.createCatalog({ name: 'u' });
  await ws.createSchema({ catalog: 'u', name: 's' });
  store = await createTestStore();
  app = createApp(testAppDeps({ store, open: async () => ws }));
});
afterAll(async () => {
  await ws.close();
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

const deltaRsRows = (dir: string) =>
  JSON.parse(
    execFileSync(
      PYTHON,
      [
        '-c',
        // os._exit: delta-rs's runtime can abort at interpreter exit after a read.
        'import json,os,sys; from deltalake import DeltaTable; ' +
          'print(json.dumps([{k: (None if v is None else str(v)) for k, v in r.items()} for r in DeltaTable(sys.argv[1]).to_pyarrow_table().to_pylist()]), flush=True); os._exit(0)',
        dir,
      ],
      { encoding: 'utf8' },
    ),
  ) as Record<string, string | null>[];

test('DELTA → ICEBERG by UniForm: Iceberg metadata beside the log on every commit; pyiceberg and delta-rs read the same rows', async () => {
  await ws.createTable({
    ref,
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'region', type: 'string' },
      { name: 'amount', type: 'double' },
    ],
    partitionColumns: ['region'],
  });
  await ws.insertRows(ref, [
    { id: 1, region: 'eu', amount: 1.5 },
    { id: 2, region: 'us', amount: 2 },
  ]);
  const res = await request(app)
    .post('/api/convert-to-delta')
    .send({
      confirm_destructive: true,
      targets: [{ fqn: 'u.s.orders', source_format: 'DELTA', target_format: 'ICEBERG' }],
    })
    .expect(200);
  expect(res.body.results[0]).toMatchObject({ status: 'converted', strategy_used: 'uniform', backup_fqn: null });
  const props = await ws.getProperties(ref);
  expect(props).toMatchObject({
    'delta.enableDeletionVectors': 'false',
    'delta.columnMapping.mode': 'name',
    'delta.enableIcebergCompatV2': 'true',
    'delta.universalFormat.enabledFormats': 'iceberg',
  });
  const dir = (await ws.describeTable(ref)).location!;
  const ours = asText((await ws.query('SELECT id, region, amount FROM u.s.orders')).rows);
  expect(asText(pyiceberg(dir).rows)).toEqual(ours);
  expect(pyiceberg(dir).schema.map((f) => [f.name, f.type])).toEqual([
    ['id', 'long'],
    ['region', 'string'],
    ['amount', 'double'],
  ]);
  expect(asText(deltaRsRows(dir))).toEqual(ours);

  // Every later commit refreshes the Iceberg side.
  await ws.insertRows(ref, [{ id: 3, region: 'eu', amount: 9 }]);
  await ws.deleteWhere(ref, 'id = 2');
  const now = asText((await ws.query('SELECT id, region, amount FROM u.s.orders')).rows);
  expect(now.map((r) => r.id).sort()).toEqual(['1', '3']);
  expect(asText(pyiceberg(dir).rows)).toEqual(now);
  expect(asText(deltaRsRows(dir))).toEqual(now);
});
