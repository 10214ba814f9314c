import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Store } from '../../store/db';
import { listChecks } from '../../store/data-quality/checks';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

let store: Store;
let ws: LocalWorkspace;
let root: string;
let app: Express;
beforeAll(async () => {
  store = await createTestStore();
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-mdm-tpl-'));
  ws = new LocalWorkspace({ root, user: 'lakeward' });
  app = createApp(testAppDeps({ store, open: async () => ws }));
});
afterAll(async () => {
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

const NAMES = ['financial_kyc', 'healthcare_mpi', 'manufacturing_supplier', 'retail_360'];

test('four templates, each with every component the specification lists', async () => {
  const list = await request(app).get('/api/mdm/templates').expect(200);
  expect(list.body.map((t: { name: string }) => t.name)).toEqual(NAMES);
  for (const name of NAMES) {
    const t = (await request(app).get(`/mdm/templates/${name}`).expect(200)).body;
    for (const part of ['entities', 'match_rules', 'merge_strategies', 'reference_data', 'hierarchies', 'dq_rules'])
      expect({ name, part, filled: Object.keys(t[part]).length > 0 }).toEqual({ name, part, filled: true });
    const entity = Object.keys(t.entities)[0];
    expect(Object.keys(t.entities[entity].attributes).length).toBeGreaterThan(3);
    expect(t.hierarchies[0].codes.some((c: { parent?: string }) => c.parent)).toBe(true);
  }
  await request(app).get('/api/mdm/templates/nope').expect(404);
});

test('apply creates models, tables, domains and DQX checks; a second apply changes nothing', async () => {
  for (const name of NAMES) {
    const first = await request(app).post(`/api/mdm/templates/${name}/apply`).send({ target_catalog: 'mdm_demo' });
    expect({ status: first.status, error: first.body.error }).toEqual({ status: 200, error: undefined });
    expect(first.body.changed).toBe(true);
    for (const e of first.body.entities) {
      expect(e).toMatchObject({ model: 'created', table: 'created' });
      expect(
        await ws.tableExists({ catalog: 'mdm_demo', schema: 'mdm', name: `source_records_${e.entity_type}` }),
      ).toBe(true);
      await request(app).get(`/api/mdm/models/${e.entity_type}`).expect(200);
    }
    expect(first.body.dq_rules[0].created).toBeGreaterThan(0);
    expect(await listChecks(store.db, { tableFqn: first.body.dq_rules[0].table_fqn })).toHaveLength(
      first.body.dq_rules[0].created,
    );
    expect(first.body.reference_data.every((d: { created: number }) => d.created > 0)).toBe(true);

    const second = await request(app)
      .post(`/mdm/templates/${name}/apply`)
      .send({ target_catalog: 'mdm_demo' })
      .expect(200);
    expect(second.body.changed).toBe(false);
    expect(
      second.body.entities.every(
        (e: { model: string; table: string }) => e.model === 'unchanged' && e.table === 'unchanged',
      ),
    ).toBe(true);
    expect(
      second.body.reference_data.every((d: { created: number; updated: number }) => d.created + d.updated === 0),
    ).toBe(true);
    expect(second.body.dq_rules.every((d: { created: number }) => d.created === 0)).toBe(true);
  }
  const sex = await request(app)
    .get('/api/mdm/reference-data/administrative_sex/resolve')
    .query({ value: 'Female' })
    .expect(200);
  expect(sex.body.code).toBe('F');
  const tier = await request(app).get('/api/mdm/reference-data/supplier_tier').expect(200);
  expect(tier.body.codes.find((c: { code: string }) => c.code === 'TIER3').parent).toBe('TIER2');
});

test('components choose what is applied', async () => {
  const r = await request(app)
    .post('/api/mdm/templates/retail_360/apply')
    .send({ target_catalog: 'other_cat', components: ['reference_data'] })
    .expect(200);
  expect(r.body).toMatchObject({ changed: false, entities: [], dq_rules: [] });
});
