import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createApp } from '../../api/app';
import { startServer } from '../../api/server';
import {
  COPQ_DEFAULTS,
  copqByTable,
  copqEvents,
  copqSummary,
  copqTrends,
  isoWeek,
} from '../../activities/finops/logic/copq';
import { deriveUpTo } from '../../activities/finops/derive';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Store } from '../../store/db';
import { countCopqEvents } from '../../store/finops/copq-repo';
import { recordJobSpans } from '../../store/finops/repo';
import { insertWarehouse, recordTransition } from '../../store/warehouses/repo';
import { dqAnomalies, dqEvents, dqxRunResults, jobs } from '../../store/schema';
import { createTestStore } from '../helpers/db';
import { testAppDeps } from '../api/deps';

const DAY = 86_400_000;
const prices = { dbu_price_usd: { Pro: 0.55, Serverless: 0.7, Classic: 0.22 }, price_per_gb: 0.023 };

describe('COPQ formulas', () => {
  test('ISO weeks, including the years whose first days belong to another', () => {
    expect(isoWeek(new Date('2026-01-01T12:00:00Z'))).toBe('2026-W01'); // a Thursday
    expect(isoWeek(new Date('2027-01-01T00:00:00Z'))).toBe('2026-W53'); // a Friday
    expect(isoWeek(new Date('2024-12-30T00:00:00Z'))).toBe('2025-W01'); // a Monday
    expect(isoWeek(new Date('2026-11-24T13:00:00Z'))).toBe('2026-W48');
  });

  test('each fact priced by its formula, downstream = sum × multiplier, weeks with zeros', () => {
    const at = new Date('2026-11-24T10:00:00Z');
    const events = copqEvents(
      [
        { kind: 'failure', id: 'dq_run:r1', table: 't', at, jobId: 'dq-1', share: 0.5 },
        { kind: 'freshness_breach', id: 'anomaly:a', table: 't', at },
        { kind: 'incident', id: 'dq_event:1', table: 'u', at: new Date('2026-11-10T00:00:00Z') },
      ],
      new Map([['dq-1', 10]]),
      COPQ_DEFAULTS,
    );
    // t: rerun 25 + 10 × 0.5 = 30, sla 500, downstream (30 + 500) × 2.5 = 1325; u: triage 2 × 75 = 150, downstream 375
    expect(copqByTable(events)).toEqual([
      { table: 't', rerun: 30, sla: 500, triage: 0, downstream: 1325, total: 1855, events: 4 },
      { table: 'u', rerun: 0, sla: 0, triage: 150, downstream: 375, total: 525, events: 2 },
    ]);
    expect(copqSummary(events)).toMatchObject({ total: 2380, events: 6, tables: 2 });
    const weeks = copqTrends(events, at);
    expect(weeks).toHaveLength(12);
    expect(weeks[11]).toMatchObject({ week: '2026-W48', total: 1855 });
    expect(weeks[9]).toMatchObject({ week: '2026-W46', total: 525 });
    expect(weeks[0]).toEqual({ week: '2026-W37', rerun: 0, sla: 0, triage: 0, downstream: 0, total: 0 });
  });
});

describe('COPQ over the data-quality facts', () => {
  let store: Store;
  let dataDir: string;
  let app: ReturnType<typeof createApp>;
  let deps: ReturnType<typeof testAppDeps>;
  beforeAll(async () => {
    store = await createTestStore();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'lw-copq-'));
    deps = testAppDeps({
      store,
      flags: { dataDir },
      open: async (spec) => new LocalWorkspace({ root: (spec as { root: string }).root, user: 'lakeward' }),
    });
    app = createApp(deps);
    const at = new Date(Date.now() - 2 * DAY);
    const old = new Date(Date.now() - 40 * DAY);
    const run = (runId: string, tableFqn: string, status: string, executedAt = at) => ({
      runId,
      jobId: 'dq-20261122-100000-aa',
      tableFqn,
      totalRows: 10,
      validRows: 10,
      invalidRows: 0,
      errorRows: 0,
      warningRows: 0,
      passRate: status === 'failed' ? 0 : 100,
      checksApplied: 1,
      checkResults: [],
      executionTimeMs: 5,
      status,
      executedAt,
      executedBy: 'test',
    });
    await store.db.insert(dqxRunResults).values([
      run('r1', 'prod.sales.orders', 'failed'),
      run('r2', 'prod.sales.items', 'completed'), // passed: no cost
      run('r0', 'prod.sales.orders', 'failed', old), // outside the 30-day window
    ]);
    const anomaly = (anomalyId: string, tableFqn: string, status: string) => ({
      anomalyId,
      observationId: 1,
      tableFqn,
      metric: 'freshness_hours',
      observedValue: 50,
      expectedMin: 0,
      expectedMax: 24,
      baselineMean: 12,
      baselineStddev: 4,
      zScore: 9.5,
      baselineSamples: 10,
      severity: 'critical',
      status,
      detectedAt: at,
    });
    await store.db
      .insert(dqAnomalies)
      .values([anomaly('a1', 'prod.sales.orders', 'open'), anomaly('a2', 'prod.sales.items', 'false_positive')]);
    await store.db.insert(dqEvents).values([
      { type: 'gate_failed', tableFqn: 'prod.sales.orders', message: 'gate', payload: {}, createdAt: at },
      { type: 'rule_logged', tableFqn: 'prod.sales.items', message: 'logged', payload: {}, createdAt: at },
    ]);
    await store.db.insert(jobs).values({
      jobId: 'clone-20261122-100000-bb',
      jobType: 'clone',
      status: 'failed',
      sourceCatalog: 'prod',
      createdAt: at,
    });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const read = async () => ({
    summary: (await request(app).get('/api/copq/summary').expect(200)).body,
    byTable: (await request(app).get('/api/copq/by-table').expect(200)).body,
    trends: (await request(app).get('/api/copq/trends').expect(200)).body,
    events: await countCopqEvents(store.db),
  });

  test('the fixture matches a hand computation; computing again changes nothing', async () => {
    const first = (await request(app).post('/api/copq/compute').send({}).expect(200)).body;
    expect(first).toMatchObject({ facts: 4, events: 8, ledger_available: false, params: COPQ_DEFAULTS });
    const a = await read();
    // orders: rerun 25 (no ledger here) + sla 500 + triage 2 × 75 = 675, downstream × 2.5 = 1687.5
    // prod.* (the failed clone): rerun 25, downstream 62.5
    expect(a.byTable.tables).toEqual([
      { table: 'prod.sales.orders', rerun: 25, sla: 500, triage: 150, downstream: 1687.5, total: 2362.5, events: 6 },
      { table: 'prod.*', rerun: 25, sla: 0, triage: 0, downstream: 62.5, total: 87.5, events: 2 },
    ]);
    expect(a.summary).toMatchObject({ total: 2450, events: 8, tables: 2, window_days: 30 });
    expect(a.trends.weeks).toHaveLength(12);
    expect(a.trends.weeks.reduce((s: number, w: { total: number }) => s + w.total, 0)).toBe(2450);
    expect(a.events).toBe(8);

    await request(app).post('/api/copq/compute').send({}).expect(200);
    expect(await read()).toEqual(a);
  });

  test('config holds the defaults a compute uses; bad values name the field', async () => {
    expect((await request(app).get('/api/copq/config').expect(200)).body).toEqual(COPQ_DEFAULTS);
    await request(app).put('/api/copq/config').send({ sla_penalty: 100 }).expect(200);
    await request(app).post('/api/copq/compute').send({}).expect(200);
    expect((await request(app).get('/api/copq/summary').expect(200)).body.sla).toBe(100);
    const bad = await request(app).post('/api/copq/compute').send({ window_days: 0 });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(bad.body)).toContain('window_days');
    await request(app).put('/api/copq/config').send({ sla_penalty: 500 }).expect(200);
  });

  test('lakeward copq by-table (--json and text) shows what the API does', async () => {
    const server = await startServer(deps, { host: '127.0.0.1', port: 0 });
    const tsx = path.resolve(__dirname, '../../node_modules/.bin/tsx');
    const cli = async (...args: string[]) =>
      (
        await promisify(execFile)(tsx, [path.resolve(__dirname, '../../cli/main.ts'), ...args, '--url', server.url], {
          encoding: 'utf8',
        })
      ).stdout;
    try {
      const api = (await request(app).get('/api/copq/by-table').expect(200)).body;
      expect(JSON.parse(await cli('copq', 'by-table', '--json'))).toEqual(api);
      expect(await cli('copq', 'by-table')).toMatch(/prod\.sales\.orders\s+\$25\.00/);
    } finally {
      await server.close(500);
    }
  }, 60_000);

  test('a failed job’s ledger cost (the job-costs view) joins its rerun cost', async () => {
    // the failed clone held a 2X-Small Pro warehouse for 30 of the 60 minutes it ran: 2 DBU × 0.55 = 1.10 USD
    const t0 = Math.floor((Date.now() - 2 * DAY) / 3_600_000) * 3_600_000;
    await insertWarehouse(store.db, {
      id: 'wh-copq',
      location: 'local',
      state: 'STARTING',
      creatorName: null,
      spec: {
        name: 'copq',
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
    await recordTransition(store.db, 'wh-copq', 'RUNNING', 1, null, new Date(t0));
    await recordTransition(store.db, 'wh-copq', 'STOPPED', 0, null, new Date(t0 + 3_600_000));
    await recordJobSpans(store.db, [
      {
        spanKey: 'clone-20261122-100000-bb/1/1',
        jobId: 'clone-20261122-100000-bb',
        jobType: 'clone',
        warehouseId: 'wh-copq',
        startedAt: new Date(t0 + 600_000),
        endedAt: new Date(t0 + 2_400_000),
        busyMs: 1_800_000,
        runAs: null,
      },
    ]);
    const ws = new LocalWorkspace({ root: deps.config.workspace.root, user: 'lakeward' });
    const now = new Date();
    await deriveUpTo(ws, store.db, prices, now, now.getTime());

    const res = (await request(app).post('/api/copq/compute').send({}).expect(200)).body;
    expect(res).toMatchObject({ ledger_available: true, events: 8 });
    const clone = (await request(app).get('/api/copq/by-table').expect(200)).body.tables.find(
      (t: { table: string }) => t.table === 'prod.*',
    );
    expect(clone.rerun).toBeCloseTo(25 + 1.1, 6);
    expect(clone.downstream).toBeCloseTo((25 + 1.1) * 2.5, 6);
    const again = (await request(app).post('/api/copq/compute').send({}).expect(200)).body;
    expect(again.events).toBe(8);
    expect((await request(app).get('/api/copq/summary').expect(200)).body.total).toBeCloseTo(2450 + 1.1 * 3.5, 6);
  });
});
