import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { startServer } from '../../api/server';
import { openWorkspace } from '../../platform';
import type { Workspace } from '../../platform/port';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

/** The streaming clone generator on the local lakehouse: CDF checked, Python and SQL that parse, same every call. */
const PY = path.resolve(__dirname, '../../.venv/bin/python');
let store: Store;
let ws: Workspace;
let app: Express;
let dir: string;
let deps: ReturnType<typeof testAppDeps>;

beforeAll(async () => {
  store = await createTestStore();
  dir = mkdtempSync(path.join(tmpdir(), 'lw-stream-gen-'));
  ws = await openWorkspace({ kind: 'local', root: dir });
  await ws.createCatalog({ name: 'src' });
  await ws.createSchema({ catalog: 'src', name: 'sales' });
  const table = async (name: string, columns: string[], cdf: boolean) => {
    const ref = { catalog: 'src', schema: 'sales', name };
    await ws.createTable({
      ref,
      columns: columns.map((c) => ({ name: c, type: c.endsWith('id') ? 'bigint' : 'string' })),
    });
    if (cdf) await ws.setProperties(ref, { 'delta.enableChangeDataFeed': 'true' });
  };
  await table('orders', ['id', 'status'], true);
  await table('customers', ['id', 'name'], false);
  await table('events', ['event_id', 'kind'], true);
  deps = testAppDeps({ store, open: async () => ws });
  app = createApp(deps);
}, 60_000);
afterAll(async () => {
  await ws?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const G = '/api/streaming-clone-generator/generate';
const base = { source_catalog: 'src', destination_catalog: 'dst', schema_name: 'sales' };

test('a pipeline body with schema (not target), AUTO CDC flows over the change data feed and materialized views; identical on every call', async () => {
  const body = {
    ...base,
    advanced_tables: [
      'orders',
      { name: 'events', keys: ['event_id'] },
      { name: 'customers', table_type: 'materialized_view' },
    ],
  };
  const res = await request(app).post(G).send(body).expect(200);
  expect(res.body.pipeline).toMatchObject({
    name: 'sales_streaming_clone',
    catalog: 'dst',
    schema: 'sales',
    continuous: false,
    development: false,
  });
  expect(res.body.pipeline).not.toHaveProperty('target');
  expect(res.body.pipeline.libraries.map((l: { file: { path: string } }) => l.file.path)).toEqual(
    res.body.files.map((f: { path: string }) => f.path),
  );
  const python = res.body.python as string;
  expect(python).toContain('spark.readStream.option("readChangeFeed", "true").table("src.sales.orders")');
  expect(python).toContain('keys=["id"]');
  expect(python).toContain('keys=["event_id"]');
  expect(python.match(/dlt\.create_auto_cdc_flow\(/g)).toHaveLength(2);
  const pyFile = path.join(dir, 'flows.py');
  writeFileSync(pyFile, python);
  execFileSync(PY, ['-c', 'import ast,sys; ast.parse(open(sys.argv[1]).read())', pyFile]);
  expect(res.body.materialized_view_sql).toBe(
    'CREATE OR REFRESH MATERIALIZED VIEW `customers` AS SELECT * FROM `src`.`sales`.`customers`;',
  );
  const parsed = execFileSync(
    PY,
    [
      '-c',
      'import sqlglot,sys; print(type(sqlglot.parse_one(sys.argv[1].rstrip(";"), read="databricks")).__name__)',
      res.body.materialized_view_sql,
    ],
    { encoding: 'utf8' },
  );
  expect(parsed.trim()).toBe('Create');
  expect((await request(app).post(G).send(body).expect(200)).body).toEqual(res.body);
});

test('a streaming table without change data feed, without keys or not in the source is refused, naming the item', async () => {
  const noCdf = await request(app)
    .post(G)
    .send({ ...base, advanced_tables: ['orders', 'customers'] })
    .expect(400);
  expect(noCdf.body.error.details).toEqual([
    { path: 'body.advanced_tables.1', message: expect.stringContaining('no change data feed') },
  ]);
  const noKeys = await request(app)
    .post(G)
    .send({ ...base, advanced_tables: ['events'] })
    .expect(400);
  expect(noKeys.body.error.details[0].path).toBe('body.advanced_tables.0.keys');
  const badSql = await request(app)
    .post(G)
    .send({
      ...base,
      advanced_tables: [{ name: 'customers', table_type: 'materialized_view', source_sql: 'DROP TABLE x' }],
    })
    .expect(400);
  expect(badSql.body.error.details[0].path).toBe('body.advanced_tables.0.source_sql');
  await request(app)
    .post(G)
    .send({ ...base, advanced_tables: ['missing'] })
    .expect(404);
});

test('lakeward generate-streaming prints the pipeline and its files', async () => {
  const server = await startServer(deps, { host: '127.0.0.1', port: 0 });
  try {
    const { stdout } = await promisify(execFile)(
      path.resolve(__dirname, '../../node_modules/.bin/tsx'),
      [
        path.resolve(__dirname, '../../cli/main.ts'),
        'generate-streaming',
        '--source',
        'src',
        '--dest',
        'dst',
        '--schema',
        'sales',
        '--tables',
        'orders,events',
        '--keys',
        'events=event_id',
        '--views',
        'customers',
        '--url',
        server.url,
      ],
      { encoding: 'utf8' },
    );
    expect(stdout).toContain('--- pipeline.json');
    expect(stdout).toContain('"schema": "sales"');
    expect(stdout).toContain('keys=["event_id"]');
    expect(stdout).toContain('CREATE OR REFRESH MATERIALIZED VIEW `customers`');
  } finally {
    await server.close(500);
  }
}, 60_000);
