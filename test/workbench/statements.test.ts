import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { createDatabricksWorkspace } from '../../platform/databricks';
import type { Workspace } from '../../platform/port';
import { testAppDeps } from '../api/deps';
import { RecordingSqlSession } from '../databricks/recording-session';
import { createHarness, eventually, type Harness } from '../helpers/harness';

/**
 * Workbench statements through the HTTP API, on the local lakehouse and on a Databricks workspace whose SQL
 * driver is the recording fake: what is refused never reaches either engine, rows stop at row_limit, a long
 * query is cancelled, parameters are data.
 */
let h: Harness;
let local: Express;
let dbx: Express;
let localCalls = 0;
const recorder = new RecordingSqlSession([
  ['SELECT * FROM `main`.`sales`.`orders`', { rows: [{ id: 1 }, { id: 2 }, { id: 3 }] }],
]);

/** Counts the statements that reach the local engine. */
function counting(ws: Workspace): Workspace {
  return new Proxy(ws, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (prop === 'executeStatement' && typeof v === 'function') {
        return (...args: unknown[]) => {
          localCalls++;
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return v;
    },
  });
}

beforeAll(async () => {
  h = await createHarness('workbench-statements');
  const root = h.config.workspace.root;
  const ws = h.open(root);
  await ws.createCatalog({ name: 'wb' });
  await ws.createSchema({ catalog: 'wb', name: 's' });
  await ws.createTableAs({
    ref: { catalog: 'wb', schema: 's', name: 'big' },
    query: 'SELECT id, CAST(id AS STRING) AS name FROM range(10000) AS t(id)',
  });
  local = createApp(
    testAppDeps({ store: h.store, flags: { dataDir: h.config.data_dir }, open: async () => counting(h.open(root)) }),
  );
  const databricks = await createDatabricksWorkspace({
    host: 'https://dbc-test.cloud.databricks.com',
    warehouseId: 'wh1',
    auth: { type: 'pat', token: 'dapi0123' },
    sqlSession: recorder,
  });
  dbx = createApp(testAppDeps({ store: h.store, flags: { dataDir: h.config.data_dir }, open: async () => databricks }));
}, 120_000);
afterAll(async () => h?.teardown());

const S = '/api/sql/statements';

const REFUSED: [string, string][] = [
  ['INSERT INTO wb.s.big VALUES (1, "a")', 'INSERT'],
  ["UPDATE wb.s.big SET name = 'x'", 'UPDATE'],
  ['DELETE FROM wb.s.big', 'DELETE'],
  ['MERGE INTO wb.s.big t USING wb.s.big s ON t.id = s.id WHEN MATCHED THEN DELETE', 'MERGE'],
  ['CREATE TABLE wb.s.t2 (id INT)', 'CREATE'],
  ['DROP TABLE wb.s.big', 'DROP'],
  ['ALTER TABLE wb.s.big ADD COLUMN x INT', 'ALTER'],
  ['TRUNCATE TABLE wb.s.big', 'TRUNCATE'],
  ["COPY INTO wb.s.big FROM '/tmp' FILEFORMAT = CSV", 'COPY'],
  ['GRANT SELECT ON TABLE wb.s.big TO `x`', 'GRANT'],
  ['REVOKE SELECT ON TABLE wb.s.big FROM `x`', 'REVOKE'],
  ['SET spark.sql.ansi.enabled = false', 'SET'],
  ['USE CATALOG wb', 'USE'],
  ['OPTIMIZE wb.s.big', 'OPTIMIZE'],
  ['VACUUM wb.s.big', 'VACUUM'],
  ['WITH x AS (SELECT 1 AS id) INSERT INTO wb.s.big SELECT id, "a" FROM x', 'INSERT'],
  ['EXPLAIN DELETE FROM wb.s.big', 'DELETE'],
  ['SELECT 1; SELECT 2', ';'],
  ['SELECT 1; DROP TABLE wb.s.big', ';'],
];

describe('statements refused before any engine sees them', () => {
  it.each(REFUSED)('%s → 400 naming %s, on both adapters', async (statement, keyword) => {
    for (const app of [local, dbx]) {
      const res = await request(app).post(S).send({ statement }).expect(400);
      expect(res.body.error.details[0]).toMatchObject({ path: 'body.statement' });
      expect(res.body.error.details[0].message).toContain(keyword);
    }
    expect(localCalls).toBe(0);
    expect(recorder.streamed).toEqual([]);
  });
});

describe('a statement on the local lakehouse', () => {
  it('stops at row_limit, says so, and serves the rows in 1,000-row chunks', async () => {
    const res = (
      await request(local)
        .post(S)
        .send({ statement: 'SELECT * FROM wb.s.big ORDER BY id', row_limit: 2500 })
        .expect(200)
    ).body;
    expect(res.status.state).toBe('SUCCEEDED');
    expect(res.manifest).toMatchObject({
      format: 'JSON_ARRAY',
      total_row_count: 2500,
      total_chunk_count: 3,
      truncated: true,
    });
    expect(res.manifest.schema.columns).toEqual([
      { name: 'id', type_name: 'BIGINT', type_text: 'BIGINT', position: 0 },
      { name: 'name', type_name: 'STRING', type_text: 'STRING', position: 1 },
    ]);
    expect(res.result).toMatchObject({ chunk_index: 0, row_offset: 0, row_count: 1000, next_chunk_index: 1 });
    expect(res.result.data_array[0]).toEqual(['0', '0']);
    const last = (await request(local).get(`${S}/${res.statement_id}/result/chunks/2`).expect(200)).body;
    expect(last).toMatchObject({ chunk_index: 2, row_offset: 2000, row_count: 500 });
    expect(last.next_chunk_index).toBeUndefined();
    expect(last.data_array.at(-1)).toEqual(['2499', '2499']);
    await request(local).get(`${S}/${res.statement_id}/result/chunks/3`).expect(404);

    const limited = (
      await request(local).post(S).send({ statement: 'SELECT id FROM wb.s.big', row_limit: 1000 }).expect(200)
    ).body;
    expect(limited.manifest).toMatchObject({ total_row_count: 1000, truncated: true });
    const all = (await request(local).post(S).send({ statement: 'SELECT count(*) AS n FROM wb.s.big' }).expect(200))
      .body;
    expect(all.result.data_array).toEqual([['10000']]);
    expect(all.manifest.truncated).toBe(false);
  });

  it('limits inside the engine without renaming columns: duplicate names stay, a LIMIT of its own is kept', async () => {
    const dup = (
      await request(local)
        .post(S)
        .send({ statement: 'SELECT id, id AS id FROM wb.s.big ORDER BY id DESC;', row_limit: 2 })
        .expect(200)
    ).body;
    expect(dup.manifest.schema.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'id']);
    expect(dup.manifest).toMatchObject({ total_row_count: 2, truncated: true });
    expect(dup.result.data_array).toEqual([
      ['9999', '9999'],
      ['9998', '9998'],
    ]);
    const own = (
      await request(local)
        .post(S)
        .send({ statement: 'SELECT id FROM wb.s.big ORDER BY id LIMIT 3 -- three', row_limit: 2 })
        .expect(200)
    ).body;
    expect(own.manifest).toMatchObject({ total_row_count: 2, truncated: true });
    const exact = (
      await request(local).post(S).send({ statement: 'SELECT id FROM wb.s.big WHERE id < 5', row_limit: 5 }).expect(200)
    ).body;
    expect(exact.manifest).toMatchObject({ total_row_count: 5, truncated: false });
  });

  it('binds parameters as data: a quote and a DROP in a value find nothing and drop nothing', async () => {
    const res = (
      await request(local)
        .post(S)
        .send({
          statement: 'SELECT id FROM wb.s.big WHERE name = :n OR id = :i',
          parameters: [
            { name: 'n', value: "x'; DROP TABLE wb.s.big; --" },
            { name: 'i', value: '42', type: 'INT' },
          ],
        })
        .expect(200)
    ).body;
    expect(res.result.data_array).toEqual([['42']]);
    expect(await h.open(h.config.workspace.root).tableExists({ catalog: 'wb', schema: 's', name: 'big' })).toBe(true);
    await request(local)
      .post(S)
      .send({ statement: 'SELECT :x', parameters: [{ name: 'x; DROP', value: '1' }] })
      .expect(400);
  });

  it('qualifies names with catalog and schema, and answers SHOW, DESCRIBE and EXPLAIN', async () => {
    const q = (statement: string, extra: object = {}) =>
      request(local)
        .post(S)
        .send({ statement, ...extra })
        .expect(200)
        .then((r) => r.body);
    expect((await q('SELECT count(*) FROM big', { catalog: 'wb', schema: 's' })).result.data_array).toEqual([
      ['10000'],
    ]);
    expect((await q('SHOW TABLES IN wb.s')).result.data_array).toEqual([['s', 'big', 'false']]);
    expect((await q('DESCRIBE TABLE wb.s.big')).result.data_array).toEqual([
      ['id', 'bigint', null],
      ['name', 'string', null],
    ]);
    const plan = await q('EXPLAIN SELECT * FROM wb.s.big WHERE id = 1');
    expect(plan.manifest.schema.columns[0].name).toBe('plan');
    expect(plan.result.data_array[0][0]).toMatch(/Physical Plan/);
  });

  it('cancels a long query within 2 s, and the next statement works', async () => {
    const started = (
      await request(local)
        .post(S)
        .send({
          statement: 'SELECT count(*) FROM wb.s.big a, wb.s.big b, wb.s.big c',
          wait_timeout: '0s',
        })
        .expect(200)
    ).body;
    expect(started.status.state).toBe('RUNNING');
    const t0 = Date.now();
    const cancelled = (await request(local).post(`${S}/${started.statement_id}/cancel`).expect(200)).body;
    expect(cancelled.status.state).toBe('CANCELED');
    expect(Date.now() - t0).toBeLessThan(2000);
    const next = (await request(local).post(S).send({ statement: 'SELECT 1 AS one' }).expect(200)).body;
    expect(next.result.data_array).toEqual([['1']]);
  });

  it('stops a statement at timeout_seconds: FAILED with DEADLINE_EXCEEDED', async () => {
    const res = (
      await request(local)
        .post(S)
        .send({ statement: 'SELECT count(*) FROM wb.s.big a, wb.s.big b, wb.s.big c', timeout_seconds: 1 })
        .expect(200)
    ).body;
    expect(res.status).toMatchObject({ state: 'FAILED', error: { error_code: 'DEADLINE_EXCEEDED' } });
  });

  it('keeps the caller’s newest 30 statements in the history; the 31st evicts the oldest', async () => {
    for (let i = 0; i < 31; i++)
      await request(local)
        .post(S)
        .send({ statement: `SELECT ${i} AS n` })
        .expect(200);
    const history = (await request(local).get('/api/sql/history').expect(200)).body.history;
    expect(history).toHaveLength(30);
    expect(history[0]).toMatchObject({ statement: 'SELECT 30 AS n', state: 'SUCCEEDED', row_count: 1 });
    expect(history.at(-1).statement).toBe('SELECT 1 AS n');
  });

  it('answers 404 for an unknown statement', async () => {
    await request(local).get(`${S}/nope`).expect(404);
  });
});

describe('a statement on a Databricks workspace (recording driver)', () => {
  it('sends the read-only statement with its named parameters and keeps row_limit rows', async () => {
    const res = (
      await request(dbx)
        .post(S)
        .send({
          statement: 'SELECT * FROM `main`.`sales`.`orders` WHERE region = :r',
          parameters: [{ name: 'r', value: "EU'; --" }],
          row_limit: 2,
        })
        .expect(200)
    ).body;
    expect(res.manifest).toMatchObject({ total_row_count: 2, truncated: true });
    expect(recorder.streamed.at(-1)).toEqual({
      sql: 'SELECT * FROM `main`.`sales`.`orders` WHERE region = :r',
      parameters: [{ name: 'r', value: "EU'; --", type: null }],
    });
    await eventually(
      async () =>
        (await request(dbx).get('/api/sql/history').expect(200)).body.history.some(
          (e: { statement_id: string }) => e.statement_id === res.statement_id,
        ),
      { what: 'the statement in the history' },
    );
  });
});
