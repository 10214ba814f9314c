import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../api/app';
import { BILLING_VIEWS, summariseBilling, viewSql, type BillingView } from '../../activities/finops/logic/views';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Store } from '../../store/db';
import { createTestStore } from '../helpers/db';
import { testAppDeps } from '../api/deps';

const PARSE = `
import sys, json, sqlglot
for name, sql in json.load(sys.stdin).items():
    sqlglot.parse_one(sql, read="databricks")
print("ok")
`;

test('every billing view is one Databricks SQL text that sqlglot parses', () => {
  const texts = Object.fromEntries((Object.keys(BILLING_VIEWS) as BillingView[]).map((v) => [v, viewSql(v, 30)]));
  const py = path.join(__dirname, '../../.venv/bin/python');
  const out = spawnSync(py, ['-c', PARSE], { input: JSON.stringify(texts), encoding: 'utf8' });
  expect(out.stderr).toBe('');
  expect(out.stdout.trim()).toBe('ok');
  expect(() => viewSql('billing', -1)).toThrow(/days/);
  expect(() => viewSql('billing', 1.5)).toThrow(/days/);
});

test('billing breakdowns add up to the totals, money to 6 decimals', () => {
  const line = { sku_name: 'ENTERPRISE_SQL_PRO_COMPUTE', product: 'JOBS', run_as: null, job_type: 'clone' };
  const s = summariseBilling([
    { ...line, usage_date: '2026-11-01', warehouse_id: 'a', job_id: 'j1', dbus: 1.0000004, cost: 0.5500002 },
    { ...line, usage_date: '2026-11-02', warehouse_id: 'a', job_id: null, product: 'SQL', dbus: 2, cost: 1.1 },
  ]);
  expect(s.totals).toEqual({ dbus: 3, cost: 1.65 });
  expect(s.by_product).toEqual([
    { product: 'JOBS', dbus: 1, cost: 0.55 },
    { product: 'SQL', dbus: 2, cost: 1.1 },
  ]);
  expect(s.by_job).toEqual([{ job_id: 'j1', job_type: 'clone', warehouse_id: 'a', dbus: 1, cost: 0.55 }]);
});

describe('without system tables', () => {
  let store: Store;
  let dataDir: string;
  beforeAll(async () => {
    store = await createTestStore();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'lw-finops-'));
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('each view answers 200 available false with the reason', async () => {
    const app = createApp(
      testAppDeps({
        store,
        flags: { dataDir },
        open: async (spec) => new LocalWorkspace({ root: (spec as { root: string }).root, user: 'lakeward' }),
      }),
    );
    for (const view of Object.keys(BILLING_VIEWS)) {
      const res = await request(app).get(`/api/finops/${view}?days=7`).expect(200);
      expect(res.body.available).toBe(false);
      expect(res.body.reason).toMatch(/system/);
    }
    await request(app).get('/finops/billing?days=0').expect(400);
  });
});
