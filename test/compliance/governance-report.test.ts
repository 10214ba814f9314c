import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { seedMiniCatalog } from '../clone/fixtures/mini-catalog';
import { createTestStore } from '../helpers/db';

let store: Store;
let root: string;
let app: Express;
const CUSTOMERS = { catalog: 'prod', schema: 'sales', name: 'customers' };

beforeAll(async () => {
  store = await createTestStore();
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-compliance-gov-'));
  const ws = new LocalWorkspace({ root, user: 'lakeward' });
  await seedMiniCatalog(ws, 'prod');
  await ws.createTable({
    ref: CUSTOMERS,
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'email', type: 'string' },
      { name: 'nickname', type: 'string' },
    ],
  });
  await ws.setColumnTags(CUSTOMERS, 'nickname', { pii: 'person_name' });
  await ws.grant({ type: 'CATALOG', catalog: 'prod' }, 'account users', ['SELECT']);
  app = createApp(testAppDeps({ store, open: async () => ws }));
});
afterAll(async () => {
  await store?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

type Section = { name: string; score: number; status: string; details: Record<string, unknown> };

test('the governance report finds PII columns by name and tag, masked or not, and scores each section', async () => {
  const res = await request(app).post('/api/compliance').send({ catalog: 'prod' }).expect(200);
  expect(res.body).toMatchObject({ report_type: 'data_governance', catalogs: ['prod'] });
  const byName = Object.fromEntries((res.body.sections as Section[]).map((s) => [s.name, s]));
  expect(Object.keys(byName)).toEqual(['ownership', 'tag_coverage', 'pii_masking']);
  expect(byName.pii_masking.details).toMatchObject({
    pii_columns: 3,
    masked: ['prod.hr.employees.ssn'],
    unmasked: ['prod.sales.customers.email', 'prod.sales.customers.nickname'],
  });
  expect(byName.pii_masking).toMatchObject({ score: 33, status: 'NON_COMPLIANT' });
  const scores = (res.body.sections as Section[]).map((s) => s.score);
  expect(res.body.overall_score).toBe(Math.floor(scores.reduce((a, b) => a + b, 0) / scores.length));
});

test('the full report adds permissions: a grant to every account user counts against it', async () => {
  const res = await request(app)
    .post('/api/compliance')
    .send({ catalog: 'prod', report_type: 'full_report' })
    .expect(200);
  const permissions = (res.body.sections as Section[]).find((s) => s.name === 'permissions')!;
  expect(permissions.details.principals).toEqual(expect.arrayContaining(['account users', 'analysts']));
  expect(permissions.details.broad_grants).toEqual([
    { securable: 'prod', principal: 'account users', privileges: ['SELECT'] },
  ]);
  expect(permissions.score).toBeLessThan(100);
  await request(app).post('/api/compliance').send({ catalog: 'nope' }).expect(404);
});
