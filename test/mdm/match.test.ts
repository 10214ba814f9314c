import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import type { Harness } from '../helpers/harness';
import { closeMdmTestApp, createMdmTestApp, jobFinished, syntheticPeople } from './helpers';

let h: Harness;
let deps: AppDeps;
let app: Express;
let root: string;
type Ref = { system: string; record_id: string };
let synthetic: { truth_table: string; examples: { duplicates: [Ref, Ref][]; distinct: [Ref, Ref][] } };

const RECORDS = 10_000;

/** Runs a job to its end through the API and answers its record. */
const finished = (jobId: string) => jobFinished(app, jobId, 240_000);

const match = async () => {
  const res = await request(app).post('/api/mdm/match/run').send({ entity_type: 'person' }).expect(202);
  return finished(res.body.job_id);
};

const entityOf = async (ref: Ref) => {
  const r = await request(app).get('/mdm/entities').query(ref).expect(200);
  expect(r.body).toHaveLength(1);
  return r.body[0].entity_id as string;
};

const allIds = async () => {
  const ws = h.open(root);
  const rows = await ws.query(
    `SELECT entity_id, system, record_id FROM clone_audit.mdm.golden_members_person ORDER BY system, record_id`,
  );
  return rows.rows.map((r) => `${r.system}/${r.record_id}=${r.entity_id}`);
};

beforeAll(async () => {
  ({ h, deps, app, root } = await createMdmTestApp('mdm-match'));
  synthetic = await syntheticPeople(app, RECORDS, 5);
}, 120_000);
afterAll(async () => closeMdmTestApp(h));

test('on 10,000 generated records: pairwise F1 ≥ 0.95, every easy pair merges, no hard non-pair does; a re-run keeps every id', async () => {
  await h.withWorker(async () => {
    const ingest = await request(app).post('/api/mdm/ingest').send({ entity_type: 'person' }).expect(202);
    expect((await finished(ingest.body.job_id)).status).toBe('completed');

    const analysis = await request(app).post('/api/mdm/blocking/analyse').send({ entity_type: 'person' }).expect(200);
    expect(analysis.body.rules.map((r: { rule: string }) => r.rule)).toEqual(['dob', 'phone', 'email', 'name_zip']);
    expect(analysis.body.records).toBeGreaterThan(9_900);

    const first = await match();
    expect(first.status).toBe('completed');
    const run = await request(app).get(`/api/mdm/match/runs/${first.job_id}`).expect(200);
    const report = run.body.report;
    expect(Object.keys(report.pairs_per_rule).sort()).toEqual(['dob', 'email', 'name_zip', 'phone']);
    expect(report.bands.merged).toBeGreaterThan(0);
    expect(report.bands.suspected).toBeGreaterThan(0);
    expect(Object.keys(report.step_ms).sort()).toEqual([
      'blocking',
      'cases',
      'clustering',
      'comparing',
      'negative_match',
      'publishing',
      'scoring',
      'training',
    ]);
    expect(report.golden_records.created).toBe(report.clusters);
    expect(report.training.lambda).toBeGreaterThan(0);

    const evaluation = await request(app)
      .post('/api/mdm/evaluate')
      .send({ entity_type: 'person', truth_table: synthetic.truth_table })
      .expect(200);
    expect(evaluation.body.pairwise.f1).toBeGreaterThanOrEqual(0.95);
    expect(evaluation.body.b_cubed.f1).toBeGreaterThanOrEqual(0.95);

    for (const [a, b] of synthetic.examples.duplicates) expect([a, await entityOf(b)]).toEqual([a, await entityOf(a)]);
    for (const [a, b] of synthetic.examples.distinct) expect(await entityOf(b)).not.toBe(await entityOf(a));

    const id = await entityOf(synthetic.examples.duplicates[0][0]);
    const golden = (await request(app).get(`/api/mdm/entities/${id}`).expect(200)).body;
    expect(golden.source_records).toEqual(expect.arrayContaining(synthetic.examples.duplicates[0]));
    expect(golden.attributes.last_name).toMatch(/^[a-z ]+$/);
    expect(golden.provenance.last_name).toEqual(expect.objectContaining({ system: expect.any(String) }));

    const before = await allIds();
    const second = await match();
    expect(second.status).toBe('completed');
    expect(second.result.golden_records).toMatchObject({ created: 0, merged: 0, archived: 0 });
    expect(report.cases_opened.suspected_duplicate).toBeGreaterThan(0);
    // twins and nicknames: only the first name (a hard identifier) keeps them below 75
    expect(report.cases_opened.negative_match_candidate).toBeGreaterThan(0);
    expect(second.result.cases_opened).toEqual({
      match_review: 0,
      suspected_duplicate: 0,
      negative_match_candidate: 0,
      conflict_resolution: 0,
    });
    expect(await allIds()).toEqual(before);
  });
}, 600_000);

test('a blocking rule over mdm.max_candidate_pairs fails the run before anything is compared, naming the rule', async () => {
  const capped = createApp({
    ...deps,
    config: { ...deps.config, mdm: { ...deps.config.mdm, max_candidate_pairs: 100 } },
  });
  const candidates = { catalog: 'clone_audit', schema: 'mdm', name: 'match_candidates_person' };
  const versions = (await h.open(root).tableHistory(candidates)).length;
  await h.withWorker(async () => {
    const res = await request(capped).post('/api/mdm/match/run').send({ entity_type: 'person' }).expect(202);
    const job = await finished(res.body.job_id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(
      /blocking rule 'dob' yields \d+ candidate pairs \(all rules: \d+\), more than mdm.max_candidate_pairs 100/,
    );
    // nothing compared or scored: the candidate pairs table has no new version
    expect((await h.open(root).tableHistory(candidates)).length).toBe(versions);
  });
  const analysis = await request(capped).post('/api/mdm/blocking/analyse').send({ entity_type: 'person' }).expect(200);
  expect(analysis.body.over_limit).toBe(true);
}, 300_000);
