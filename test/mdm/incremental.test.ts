import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { Workspace } from '../../platform/port';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { testAppDeps } from '../api/deps';
import { createHarness, eventually, type Harness } from '../helpers/harness';

let h: Harness;
let app: Express;
let ws: Workspace;
type Source = { system: string; table_fqn: string; key_column: string };
let sources: Source[];

async function finished(jobId: string) {
  return eventually(
    async () => {
      const r = await request(app).get(`/api/jobs/${jobId}`).expect(200);
      if (!r.body.completed_at) throw new Error(`job ${jobId} is ${r.body.status}`);
      return r.body;
    },
    { timeoutMs: 180_000, intervalMs: 250, what: `job ${jobId} to end` },
  );
}

async function ingest() {
  const res = await request(app).post('/api/mdm/ingest').send({ entity_type: 'person' }).expect(202);
  expect((await finished(res.body.job_id)).status).toBe('completed');
}

async function match(body: Record<string, unknown> = {}) {
  const res = await request(app)
    .post('/api/mdm/match/run')
    .send({ entity_type: 'person', ...body })
    .expect(202);
  const job = await finished(res.body.job_id);
  expect(job.status).toBe('completed');
  return job.result;
}

/** Every record's golden record id and status. */
async function membership() {
  const rows = await ws.query(
    `SELECT m.system, m.record_id, m.entity_id, g.status FROM clone_audit.mdm.golden_members_person m ` +
      `JOIN clone_audit.mdm.golden_records_person g ON g.entity_id = m.entity_id ORDER BY m.system, m.record_id`,
  );
  return rows.rows.map((r) => `${r.system}/${r.record_id}=${r.entity_id}:${r.status}`);
}

const held = (s: Source) => ({ catalog: 'raw', schema: 'people', name: `held_${s.system}` });
const heldOut = (s: Source) => `right(CAST(${s.key_column} AS STRING), 2) = '07'`;

beforeAll(async () => {
  h = await createHarness('mdm-incremental');
  ws = h.open(h.config.workspace.root);
  const temporal = { client: h.env.client, connection: h.env.client.connection, address: 'test' };
  app = createApp(
    testAppDeps({
      store: h.store,
      temporal,
      flags: { dataDir: h.config.data_dir },
      env: { LAKEWARD_TASK_QUEUE: h.taskQueue },
      open: async () => ws,
    }),
  );
  const gen = await request(app)
    .post('/api/mdm/synthetic')
    .send({ catalog: 'raw', schema: 'people', records: 3000, seed: 21 })
    .expect(201);
  sources = gen.body.sources;
  await request(app).put('/api/mdm/models/person').send(gen.body.model).expect(201);
  for (const s of gen.body.sources) await request(app).post('/api/mdm/sources').send(s).expect(201);
  // About 1 % of the rows wait outside the sources until after the first run.
  for (const s of sources) {
    const [catalog, schema, name] = s.table_fqn.split('.');
    await ws.createTableAs({ ref: held(s), query: `SELECT * FROM ${s.table_fqn} WHERE ${heldOut(s)}` });
    await ws.deleteWhere({ catalog, schema, name }, heldOut(s));
  }
}, 120_000);
afterAll(async () => {
  for (const type of ['mdm_ingest', 'mdm_match'])
    await h.env.client.workflow
      .getHandle(jobQueueWorkflowId(type, h.taskQueue))
      .terminate('test over')
      .catch(() => undefined);
  await h?.teardown();
});

test('an incremental run with 1 % new records equals a full run with the same model, comparing only pairs with a new record', async () => {
  await h.withWorker(async () => {
    await request(app).post('/api/mdm/match/run').send({ entity_type: 'person', mode: 'incremental' }).expect(422);
    await ingest();
    const first = await match();
    expect(first).toMatchObject({ mode: 'full', retrained: true });
    const before = first.records as number;

    for (const s of sources) {
      const [catalog, schema, name] = s.table_fqn.split('.');
      await ws.insertQuery({ catalog, schema, name }, `SELECT * FROM raw.people.held_${s.system}`);
    }
    await ingest();
    const incremental = await match();
    expect(incremental).toMatchObject({ mode: 'incremental', retrained: false });
    const added = (incremental.records as number) - before;
    expect(added / before).toBeGreaterThan(0.005);
    expect(added / before).toBeLessThan(0.02);
    expect(incremental.changed_records).toBe(added);
    const afterIncremental = await membership();

    const full = await match({ mode: 'full', retrain: false });
    expect(full).toMatchObject({ mode: 'full', retrained: false });
    expect(await membership()).toEqual(afterIncremental);
    expect(full.golden_records).toMatchObject({ created: 0, merged: 0, archived: 0 });
    // the same scored pairs, of which the incremental run compared only those holding a new record
    const total = (r: { bands: Record<string, number> }) => Object.values(r.bands).reduce((a, b) => a + b, 0);
    expect(total(incremental)).toBe(total(full));
    const compared = (r: { pairs_per_rule: Record<string, number> }) =>
      Object.values(r.pairs_per_rule).reduce((a, b) => a + b, 0);
    expect(compared(incremental)).toBeGreaterThan(0);
    expect(compared(incremental)).toBeLessThan(compared(full) * 0.1);
  });
}, 400_000);
