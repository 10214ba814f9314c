import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { openWorkspace } from '../../platform';
import { createDatabricksWorkspace } from '../../platform/databricks';
import type { Workspace } from '../../platform/port';
import { PipelineDetailSchema, PipelineListSchema } from '../../schemas/dlt';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { RecordingSqlSession } from '../databricks/recording-session';
import { StubServer } from '../databricks/stub-server';
import { createTestStore } from '../helpers/db';

/** DLT discovery: the Pipelines API through a stand-in workspace, and the local lakehouse's empty answer. */
let store: Store;
let stub: StubServer;
let dbx: Express;
let local: Express;
let localWs: Workspace;
let dir: string;

beforeAll(async () => {
  store = await createTestStore();
  stub = await new StubServer().start();
  const databricks = await createDatabricksWorkspace({
    host: stub.url,
    warehouseId: 'wh1',
    auth: { type: 'pat', token: 'dapi0123456789abcdef0123456789abcdef' },
    sqlSession: new RecordingSqlSession(),
    retry: { baseDelayMs: 20, maxDelayMs: 50 },
  });
  dbx = createApp(testAppDeps({ store, open: async () => databricks }));
  dir = mkdtempSync(path.join(tmpdir(), 'lw-dlt-'));
  localWs = await openWorkspace({ kind: 'local', root: dir });
  local = createApp(testAppDeps({ store, open: async () => localWs }));
}, 60_000);
afterAll(async () => {
  await stub?.stop();
  await localWs?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const D = '/api/dlt/pipelines';

test('Databricks: the filter, page token and page size pass through; statuses come back as pipelines', async () => {
  stub.on('GET /api/2.0/pipelines', {
    json: {
      statuses: [
        {
          pipeline_id: 'p-1',
          name: 'sales_bronze',
          state: 'IDLE',
          cluster_id: 'ignored',
          latest_updates: [{ update_id: 'u9', state: 'COMPLETED', creation_time: '2026-11-20T10:00:00.000Z' }],
        },
        { pipeline_id: 'p-2', name: 'sales_silver', state: 'RUNNING' },
      ],
      next_page_token: 'tok-3',
    },
  });
  const filter = "name LIKE '%sales%'";
  const res = await request(dbx).get(D).query({ filter, page_token: 'tok-2', max_results: 2 }).expect(200);
  const seen = stub.seen.filter((r) => r.path === '/api/2.0/pipelines');
  expect(seen.at(-1)?.query).toEqual({ filter, page_token: 'tok-2', max_results: '2' });
  expect(PipelineListSchema.parse(res.body)).toEqual({
    pipelines: [
      {
        pipeline_id: 'p-1',
        name: 'sales_bronze',
        state: 'IDLE',
        latest_updates: [{ update_id: 'u9', state: 'COMPLETED', creation_time: '2026-11-20T10:00:00.000Z' }],
      },
      { pipeline_id: 'p-2', name: 'sales_silver', state: 'RUNNING', latest_updates: [] },
    ],
    next_page_token: 'tok-3',
  });
});

test('Databricks: one pipeline with the tables of its target schema; an unknown id is a 404', async () => {
  stub.on('GET /api/2.0/pipelines/p-1', {
    json: {
      pipeline_id: 'p-1',
      name: 'sales_bronze',
      state: 'IDLE',
      spec: { catalog: 'main', target: 'sales' },
      latest_updates: [{ update_id: 'u9', state: 'FAILED' }],
    },
  });
  stub.on('GET /api/2.1/unity-catalog/tables', (req) => ({
    json:
      req.query.catalog_name === 'main' && req.query.schema_name === 'sales'
        ? { tables: [{ name: 'orders_clean' }, { name: 'customers' }] }
        : { tables: [] },
  }));
  const res = await request(dbx).get(`${D}/p-1`).expect(200);
  expect(PipelineDetailSchema.parse(res.body)).toMatchObject({
    pipeline_id: 'p-1',
    state: 'IDLE',
    catalog: 'main',
    target: 'sales',
    latest_updates: [{ update_id: 'u9', state: 'FAILED' }],
    tables: ['main.sales.customers', 'main.sales.orders_clean'],
  });
  const missing = await request(dbx).get(`${D}/nope`).expect(404);
  expect(missing.body.error.code).toBe('NOT_FOUND');
});

test('local lakehouse: a valid, empty list; any pipeline id is a 404; a bad page size is a 400', async () => {
  const res = await request(local).get(D).query({ filter: "name LIKE 'x%'" }).expect(200);
  expect(PipelineListSchema.parse(res.body)).toEqual({ pipelines: [] });
  const missing = await request(local).get(`${D}/p-1`).expect(404);
  expect(missing.body.error.message).toMatch(/no pipeline p-1/);
  const bad = await request(local).get(D).query({ max_results: 0 }).expect(400);
  expect(bad.body.error.details[0].path).toMatch(/max_results/);
});
