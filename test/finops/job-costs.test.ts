import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../api/app';
import { deriveUpTo } from '../../activities/finops/derive';
import { viewSql } from '../../activities/finops/logic/views';
import { createDatabricksWorkspace } from '../../platform/databricks';
import { StaticTokenSource } from '../../platform/databricks/auth/token-source';
import { Secret } from '../../platform/databricks/auth/secret';
import { DriverSqlSession } from '../../platform/databricks/session/driver-session';
import { LocalWorkspace } from '../../platform/local/workspace';
import { runWithLogContext } from '../../platform/observability/log-context';
import { jobOfStatement, jobTag, tagStatement } from '../../platform/sql/job-tag';
import type { Store } from '../../store/db';
import { recordJobSpans } from '../../store/finops/repo';
import { insertWarehouse, recordTransition } from '../../store/warehouses/repo';
import { RecordingSqlSession } from '../databricks/recording-session';
import { createTestStore } from '../helpers/db';
import { testAppDeps } from '../api/deps';

const MIN = 60_000;
const HOUR = 60 * MIN;
const prices = { dbu_price_usd: { Pro: 0.55, Serverless: 0.7, Classic: 0.22 }, price_per_gb: 0.023 };
const CLONE = { job_id: 'clone-20261124-101500-3fa2', job_type: 'clone' };

describe('the job tag', () => {
  test('a job id and type become one comment line before the statement; unsafe ids are not tagged', () => {
    expect(tagStatement('SELECT 1', CLONE)).toBe(
      '/* lakeward job_id=clone-20261124-101500-3fa2 job_type=clone */\nSELECT 1',
    );
    expect(tagStatement('SELECT 1', undefined)).toBe('SELECT 1');
    expect(tagStatement(tagStatement('SELECT 1', CLONE), CLONE)).toBe(tagStatement('SELECT 1', CLONE));
    expect(jobTag({ job_id: 'x */ DROP TABLE t; /*' })).toBeNull();
    expect(tagStatement('SELECT 1', { job_id: 'a b' })).toBe('SELECT 1');
    expect(jobOfStatement(tagStatement('SELECT 1', CLONE))).toEqual(CLONE);
    expect(jobOfStatement('SELECT 1')).toBeNull();
  });
});

/** A stand-in for the warehouse behind DBSQLClient that records the statement text the driver is handed. */
function fakeWarehouse() {
  const statements: string[] = [];
  const op = {
    fetchAll: async () => [],
    fetchChunk: async () => [],
    hasMoreRows: async () => false,
    getSchema: async () => ({ columns: [] }),
    close: async () => undefined,
    cancel: async () => undefined,
  };
  const client = {
    connect: async () => client,
    openSession: async () => ({
      executeStatement: async (sql: string) => {
        statements.push(sql);
        return op;
      },
    }),
    close: async () => undefined,
  };
  return { statements, newClient: async () => client as never };
}

test('on Databricks every statement a job sends carries its tag; statements outside a job do not', async () => {
  const wh = fakeWarehouse();
  const s = new DriverSqlSession({
    host: 'https://dbc-1.cloud.databricks.com',
    warehouseId: 'abc123',
    tokens: new StaticTokenSource(new Secret('dapiX')),
    newClient: wh.newClient,
  });
  await s.executeStatement('SELECT 1');
  await runWithLogContext({ ...CLONE, workflow_id: `${CLONE.job_id}--0--sales` }, async () => {
    await s.executeStatement('CREATE OR REPLACE TABLE `a`.`b`.`c` DEEP CLONE `x`.`b`.`c`');
    await s.executeStreaming('SELECT :n AS n', { parameters: [], rowLimit: 10, timeoutMs: 5000 });
  });
  await runWithLogContext({ job_id: 'odd */ id' }, () => s.executeStatement('SELECT 2'));
  expect(wh.statements).toEqual([
    'SELECT 1',
    '/* lakeward job_id=clone-20261124-101500-3fa2 job_type=clone */\nCREATE OR REPLACE TABLE `a`.`b`.`c` DEEP CLONE `x`.`b`.`c`',
    '/* lakeward job_id=clone-20261124-101500-3fa2 job_type=clone */\nSELECT :n AS n',
    'SELECT 2',
  ]);
  await s.close();
});

test('on Databricks the job-costs view is the one SQL text sent, and billing takes by_job from it', async () => {
  const JOB_ROW = { ...CLONE, warehouse_id: 'abc123', dbus: 2.1234567, cost: 1.16790119, busy_seconds: 1911 };
  const rec = new RecordingSqlSession([
    ['WITH statements AS', { rows: [JOB_ROW] }],
    [
      'SELECT CAST(u.usage_date',
      {
        rows: [
          {
            usage_date: '2026-11-20',
            sku_name: 'ENTERPRISE_SQL_PRO_COMPUTE',
            product: 'SQL',
            warehouse_id: 'abc123',
            job_id: null,
            job_type: null,
            run_as: 'ana@example.com',
            dbus: 10,
            cost: 5.5,
          },
        ],
      },
    ],
  ]);
  const ws = await createDatabricksWorkspace({
    host: 'https://dbc-1.cloud.databricks.com',
    warehouseId: 'abc123',
    auth: { type: 'pat', token: 'dapi0123' },
    sqlSession: rec,
  });
  const store = await createTestStore();
  try {
    const app = createApp(testAppDeps({ store, open: async () => ws }));
    const costs = (await request(app).get('/api/finops/job-costs?days=7').expect(200)).body;
    expect(rec.statements).toEqual([viewSql('job-costs', 7)]);
    expect(costs).toEqual({ available: true, days: 7, rows: [JOB_ROW] });

    const billing = (await request(app).get('/finops/billing?days=7').expect(200)).body;
    expect(rec.statements.slice(1)).toEqual([viewSql('billing', 7), viewSql('job-costs', 7)]);
    expect(billing).toMatchObject({
      totals: { dbus: 10, cost: 5.5 },
      by_job: [{ ...CLONE, warehouse_id: 'abc123', dbus: 2.123457, cost: 1.167901 }],
      by_job_source: 'query_history',
    });

    // query history not enabled: job-costs says why; billing falls back to usage lines and says so
    const refusing = new RecordingSqlSession([
      ['WITH statements AS', new Error('[TABLE_OR_VIEW_NOT_FOUND] The table or view `system`.`query`.`history`')],
      ['SELECT CAST(u.usage_date', { rows: [] }],
    ]);
    const ws2 = await createDatabricksWorkspace({
      host: 'https://dbc-1.cloud.databricks.com',
      warehouseId: 'abc123',
      auth: { type: 'pat', token: 'dapi0123' },
      sqlSession: refusing,
    });
    const app2 = createApp(testAppDeps({ store, open: async () => ws2 }));
    const none = (await request(app2).get('/api/finops/job-costs?days=7').expect(200)).body;
    expect(none).toMatchObject({ available: false, reason: expect.stringMatching(/query.*history/) });
    const fallback = (await request(app2).get('/api/finops/billing?days=7').expect(200)).body;
    expect(fallback).toMatchObject({ available: true, by_job: [], by_job_source: 'usage' });
  } finally {
    await store.close();
  }
});

describe('locally, the same SQL over the query history derived from the spans', () => {
  let store: Store;
  let root: string;
  let ws: LocalWorkspace;
  const H = Math.floor(Date.now() / HOUR) * HOUR - 4 * HOUR;
  const at = (m: number) => new Date(H + m * MIN);
  const id = (n: string) => `clone-20261124-101500-${n}`;

  beforeAll(async () => {
    store = await createTestStore();
    root = mkdtempSync(path.join(os.tmpdir(), 'lw-job-costs-'));
    ws = new LocalWorkspace({ root, user: 'lakeward' });
    await insertWarehouse(store.db, {
      id: 'wh-jobs',
      location: 'local',
      state: 'STARTING',
      creatorName: null,
      spec: {
        name: 'jobs',
        clusterSize: '2X-Small',
        minNumClusters: 1,
        maxNumClusters: 1,
        autoStopMins: 120,
        warehouseType: 'PRO',
        enableServerlessCompute: false,
        enablePhoton: true,
        channel: 'CHANNEL_NAME_CURRENT',
        tags: [],
      },
    });
    // up from minute 30 to minute 150: usage windows [30,60), [60,120), [120,150) at 4 DBU/h
    await recordTransition(store.db, 'wh-jobs', 'STARTING', 0, null, at(29));
    await recordTransition(store.db, 'wh-jobs', 'RUNNING', 1, null, at(30));
    await recordTransition(store.db, 'wh-jobs', 'STOPPING', 0, null, at(150));
    await recordTransition(store.db, 'wh-jobs', 'STOPPED', 0, null, at(151));
    const span = (key: string, job: string, from: number, to: number) => ({
      spanKey: `${job}/${key}/1`,
      jobId: job,
      jobType: 'clone',
      warehouseId: 'wh-jobs',
      startedAt: at(from),
      endedAt: at(to),
      busyMs: (to - from) * MIN,
      runAs: null,
    });
    await recordJobSpans(store.db, [
      span('1', id('a'), 35, 50), // a: two activities side by side, busy [35,70) once
      span('2', id('a'), 40, 70),
      span('1', id('b'), 90, 130),
      span('1', id('c'), 100, 110), // c runs beside b
      span('1', id('d'), 120, 150), // d and b want more of [120,150) than it has
    ]);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const jobCosts = async () =>
    Object.fromEntries(
      (await ws.query(viewSql('job-costs', 30))).rows.map((r) => [
        String(r.job_id).slice(-1),
        { dbus: Number(r.dbus), cost: Number(r.cost), busy_seconds: Number(r.busy_seconds), type: r.job_type },
      ]),
    );

  test('cost per job matches a hand computation; deriving twice adds nothing; a dropped table comes back', async () => {
    const now = at(240);
    const first = await deriveUpTo(ws, store.db, prices, now, now.getTime());
    expect(first.query_history).toBe(5);
    const c = await jobCosts();
    // by hand, minutes × 4 DBU/h ÷ 60, a window's share scaled down only where its busy time exceeds its uptime:
    // a: 25 of [30,60) + 10 of [60,120); b: 30 of [60,120) + 10/40 of [120,150)'s 2 DBUs; c: 10; d: 30/40 × 2
    const want = { a: (35 * 4) / 60, b: (30 * 4) / 60 + 0.5, c: (10 * 4) / 60, d: 1.5 };
    for (const [job, dbus] of Object.entries(want)) {
      expect(c[job].dbus).toBeCloseTo(dbus, 6);
      expect(c[job].cost).toBeCloseTo(dbus * 0.55, 6);
      expect(c[job].type).toBe('clone');
    }
    expect(c.a.busy_seconds).toBeCloseTo(35 * 60, 3);

    // a job alone on the warehouse costs what the ledger bills it (busy seconds × rate)
    const usage = await ws.query(
      `SELECT CAST(SUM(usage_quantity) AS DOUBLE) AS q FROM system.billing.usage WHERE usage_metadata.job_id = '${id('a')}'`,
    );
    expect(Number(usage.rows[0].q)).toBeCloseTo(c.a.dbus, 5); // the ledger rounds each row to 6 decimals

    const history = `SELECT statement_id, statement_text, CAST(start_time AS STRING) AS s FROM system.query.history ORDER BY statement_id`;
    const rows = (await ws.query(history)).rows;
    expect(rows.map((r) => jobOfStatement(String(r.statement_text))?.job_id).sort()).toEqual(
      [id('a'), id('a'), id('b'), id('c'), id('d')].sort(),
    );
    expect(await deriveUpTo(ws, store.db, prices, now, now.getTime())).toMatchObject({ query_history: 0, usage: 0 });
    await ws.dropTable({ catalog: 'system', schema: 'query', name: 'history' });
    await deriveUpTo(ws, store.db, prices, now, now.getTime());
    expect((await ws.query(history)).rows).toEqual(rows);
    expect(await jobCosts()).toEqual(c);

    // billing's by_job is the same view, through the API
    const app = createApp(testAppDeps({ store, open: async () => ws }));
    const billing = (await request(app).get('/api/finops/billing?days=30').expect(200)).body;
    expect(billing.by_job_source).toBe('query_history');
    const a = billing.by_job.find((j: { job_id: string }) => j.job_id === id('a'));
    expect(a).toMatchObject({ job_type: 'clone', warehouse_id: 'wh-jobs' });
    expect(a.dbus).toBeCloseTo(want.a, 6);
  });

  test('statements without a tag share the warehouse too: a job pays for its part of a busy window only', async () => {
    await ws.insertRows({ catalog: 'system', schema: 'query', name: 'history' }, [
      {
        account_id: 'local',
        workspace_id: 'local',
        statement_id: 'someone-else',
        session_id: null,
        execution_status: 'FINISHED',
        compute: { type: 'WAREHOUSE', cluster_id: null, warehouse_id: 'wh-jobs' },
        executed_by: 'bo@example.com',
        statement_text: 'SELECT * FROM prod.sales.orders',
        statement_type: 'SELECT',
        client_application: 'Databricks SQL Editor',
        total_duration_ms: 30 * MIN,
        execution_duration_ms: 30 * MIN,
        start_time: at(30).toISOString(),
        end_time: at(60).toISOString(),
      },
    ]);
    const c = await jobCosts();
    // [30,60): a's 25 minutes and the other user's 30 share its 2 DBUs by time → a gets 25/55 of them there
    expect(c.a.dbus).toBeCloseTo(2 * (25 / 55) + (10 * 4) / 60, 6);
    expect(c.b.dbus).toBeCloseTo(2.5, 6);
    expect(Object.keys(c).sort()).toEqual(['a', 'b', 'c', 'd']);
  });
});
