import type { Express } from 'express';
import request from 'supertest';
import type { Workspace } from '../../platform/port';
import type { Harness } from '../helpers/harness';
import { closeMdmTestApp, createMdmTestApp, jobFinished, syntheticPeople } from './helpers';

let h: Harness;
let app: Express;
let ws: Workspace;
type Source = { system: string; table_fqn: string; key_column: string };
let sources: Source[];

const finished = (jobId: string) => jobFinished(app, jobId, 180_000);

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
  return { ...job.result, job_id: res.body.job_id as string };
}

/** Every record's golden record id and status. */
async function membership() {
  const rows = await ws.query(
    `SELECT m.system, m.record_id, m.entity_id, g.status FROM clone_audit.mdm.golden_members_person m ` +
      `JOIN clone_audit.mdm.golden_records_person g ON g.entity_id = m.entity_id ORDER BY m.system, m.record_id`,
  );
  return rows.rows.map((r) => `${r.system}/${r.record_id}=${r.entity_id}:${r.status}`);
}

/** Every golden record's values, confidence, size and status (what survivorship and scoring decided). */
async function goldenValues() {
  const rows = await ws.query(
    `SELECT entity_id, status, confidence_score, record_count, first_name, last_name, dob, email, phone, zip, ` +
      `national_id, first_name__source, email__source, merged_into FROM clone_audit.mdm.golden_records_person ORDER BY entity_id`,
  );
  return rows.rows.map((r) => JSON.stringify(r));
}

const held = (s: Source) => ({ catalog: 'raw', schema: 'people', name: `held_${s.system}` });
const heldOut = (s: Source) => `right(CAST(${s.key_column} AS STRING), 2) = '07'`;

beforeAll(async () => {
  ({ h, app, ws } = await createMdmTestApp('mdm-incremental'));
  sources = (await syntheticPeople(app, 3000, 21)).sources;
  // About 1 % of the rows wait outside the sources until after the first run.
  for (const s of sources) {
    const [catalog, schema, name] = s.table_fqn.split('.');
    await ws.createTableAs({ ref: held(s), query: `SELECT * FROM ${s.table_fqn} WHERE ${heldOut(s)}` });
    await ws.deleteWhere({ catalog, schema, name }, heldOut(s));
  }
}, 120_000);
afterAll(async () => closeMdmTestApp(h));

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
    const valuesAfterIncremental = await goldenValues();
    // only the golden records of clusters the new records touched are published again; the rest stay as the
    // first run published them
    const byRun = await ws.query(
      `SELECT count_if(run_id = '${first.job_id}') AS kept, count_if(run_id = '${incremental.job_id}') AS published ` +
        `FROM clone_audit.mdm.golden_records_person WHERE status IN ('active', 'under_review')`,
    );
    const [kept, republished] = [Number(byRun.rows[0]?.kept), Number(byRun.rows[0]?.published)];
    expect(republished).toBeGreaterThan(0);
    expect(kept).toBeGreaterThan(republished * 10);

    const full = await match({ mode: 'full', retrain: false });
    expect(full).toMatchObject({ mode: 'full', retrained: false });
    expect(await membership()).toEqual(afterIncremental);
    expect(await goldenValues()).toEqual(valuesAfterIncremental);
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
