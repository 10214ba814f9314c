import type { Express } from 'express';
import request from 'supertest';
import { stringify } from 'yaml';
import { createApp } from '../../api/app';
import { syntheticModel } from '../../activities/mdm/logic/synthetic-model';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { testAppDeps } from '../api/deps';
import { createHarness, eventually, type Harness } from '../helpers/harness';

let h: Harness;
let app: Express;
let root: string;

beforeAll(async () => {
  h = await createHarness('mdm-api');
  root = h.config.workspace.root;
  const temporal = { client: h.env.client, connection: h.env.client.connection, address: 'test' };
  app = createApp(
    testAppDeps({
      store: h.store,
      temporal,
      flags: { dataDir: h.config.data_dir },
      env: { LAKEWARD_TASK_QUEUE: h.taskQueue },
      open: async () => h.open(root),
    }),
  );
});
afterAll(async () => {
  await h.env.client.workflow
    .getHandle(jobQueueWorkflowId('mdm_ingest', h.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await h?.teardown();
});

const model = syntheticModel();

describe('models', () => {
  test('PUT takes YAML or JSON, answers 201 then 200, and GET reads it back under /api/mdm and /mdm', async () => {
    const created = await request(app)
      .put('/api/mdm/models/person')
      .send({ yaml: stringify(model) })
      .expect(201);
    expect(created.body.model).toEqual(model);
    await request(app).put('/mdm/models/person').send(model).expect(200);
    const got = await request(app).get('/mdm/models/person').expect(200);
    expect(got.body.model.blocking_rules).toEqual(model.blocking_rules);
    const list = await request(app).get('/api/mdm/models').expect(200);
    expect(list.body.map((m: { entity_type: string }) => m.entity_type)).toContain('person');
    await request(app).get('/api/mdm/models/nobody').expect(404);
  });

  test('an invalid model is a 422 naming each path', async () => {
    const bad = {
      ...model,
      attributes: { ...model.attributes, dob: { kind: 'birthday' } },
      blocking_rules: [{ name: 'b', keys: ['shoe_size'] }],
    };
    const res = await request(app).put('/api/mdm/models/person').send(bad).expect(422);
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['body.attributes.dob.kind']));
    const yaml = await request(app)
      .put('/api/mdm/models/person')
      .send({ yaml: stringify({ ...model, blocking_rules: [{ name: 'b', keys: ['shoe_size'] }] }) })
      .expect(422);
    expect(yaml.body.error.details).toEqual([
      { path: 'body.blocking_rules.0.keys.0', message: "'shoe_size' is not an attribute" },
    ]);
    const broken = await request(app).put('/api/mdm/models/person').send({ yaml: 'a: [1' }).expect(422);
    expect(broken.body.error.details[0].path).toBe('body.yaml');
    const other = await request(app).put('/api/mdm/models/company').send(model).expect(422);
    expect(other.body.error.details[0].path).toBe('body.entity_type');
  });
});

describe('synthetic data, sources and ingest', () => {
  let synthetic: {
    sources: Record<string, unknown>[];
    examples: { duplicates: unknown[]; distinct: unknown[] };
    records: number;
    truth_table: string;
  };

  beforeAll(async () => {
    const res = await request(app)
      .post('/api/mdm/synthetic')
      .send({ catalog: 'raw', schema: 'people', records: 600, seed: 3 })
      .expect(201);
    synthetic = res.body;
  });

  test('synthetic data answers with the entity type, ready-to-post sources and 10 + 10 examples', async () => {
    expect(synthetic.records).toBe(600);
    expect(synthetic.sources).toHaveLength(3);
    expect(synthetic.examples.duplicates).toHaveLength(10);
    expect(synthetic.examples.distinct).toHaveLength(10);
    const truth = await h.open(root).query(`SELECT count(*) AS n FROM ${synthetic.truth_table}`);
    expect(Number(truth.rows[0].n)).toBe(600);
  });

  test('a source with a missing table or column, or an unknown attribute, is a 422 naming the field', async () => {
    const [crm] = synthetic.sources;
    const noTable = await request(app)
      .post('/api/mdm/sources')
      .send({ ...crm, table_fqn: 'raw.people.nothing' })
      .expect(422);
    expect(noTable.body.error.details).toEqual([
      { path: 'body.table_fqn', message: 'table raw.people.nothing not found' },
    ]);
    const noColumn = await request(app)
      .post('/api/mdm/sources')
      .send({ ...crm, key_column: 'id', columns: { ...(crm.columns as object), zip: 'postcode', height: 'h' } })
      .expect(422);
    expect(noColumn.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'body.columns.height',
      'body.columns.zip',
      'body.key_column',
    ]);
    const noModel = await request(app)
      .post('/api/mdm/sources')
      .send({ ...crm, entity_type: 'company' })
      .expect(422);
    expect(noModel.body.error.details[0].path).toBe('body.entity_type');
  });

  test('sources register, list, change and delete; a second registration of a system is a 409', async () => {
    for (const s of synthetic.sources) await request(app).post('/api/mdm/sources').send(s).expect(201);
    await request(app).post('/mdm/sources').send(synthetic.sources[0]).expect(409);
    const list = await request(app).get('/api/mdm/sources?entity_type=person').expect(200);
    expect(list.body.map((s: { system: string }) => s.system)).toEqual(['crm', 'erp', 'web']);
    const patched = await request(app).patch('/api/mdm/sources/web').send({ trust: 40 }).expect(200);
    expect(patched.body.trust).toBe(40);
    await request(app).patch('/api/mdm/sources/web').send({ key_column: 'nope' }).expect(422);
    await request(app).patch('/api/mdm/sources/nobody').send({ trust: 1 }).expect(404);
    await request(app)
      .post('/api/mdm/sources')
      .send({ ...synthetic.sources[2], system: 'web2' })
      .expect(201);
    await request(app).delete('/mdm/sources/web2').expect(200);
    await request(app).get('/api/mdm/sources/web2').expect(404);
  });

  test('ingest is an mdm_ingest job whose result gives each source its counts', async () => {
    await request(app)
      .post('/api/mdm/ingest')
      .send({ entity_type: 'person', systems: ['sap'] })
      .expect(422);
    await request(app).post('/api/mdm/ingest').send({ entity_type: 'company' }).expect(422);
    await h.withWorker(async () => {
      const res = await request(app).post('/api/mdm/ingest').send({ entity_type: 'person' }).expect(202);
      expect(res.body.job_id).toMatch(/^mdm_ingest-/);
      const job = await eventually(
        async () => {
          const r = await request(app).get(`/api/jobs/${res.body.job_id}`).expect(200);
          if (!r.body.completed_at) throw new Error(`job ${res.body.job_id} is ${r.body.status}`);
          return r.body;
        },
        { timeoutMs: 60_000, what: 'the ingest job to end' },
      );
      expect(job.status).toBe('completed');
      const sources = job.result.sources as { system: string; rows_read: number; rows_written: number }[];
      expect(sources.map((s) => s.system)).toEqual(['crm', 'erp', 'web']);
      const read = sources.reduce((n, s) => n + s.rows_read, 0);
      expect(read).toBeGreaterThanOrEqual(600);
      const counted = await h
        .open(root)
        .query(`SELECT count(*) AS n FROM clone_audit.mdm.source_records_person WHERE NOT deleted`);
      expect(Number(counted.rows[0].n)).toBe(sources.reduce((n, s) => n + s.rows_written, 0));
    });
  });
});
