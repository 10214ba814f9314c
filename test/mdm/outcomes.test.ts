import type { Express } from 'express';
import request from 'supertest';
import { ensureRecordsTable } from '../../activities/mdm/ingest';
import { openRunCases, stewardDecisions } from '../../activities/mdm/match-cases';
import { prepareMatch, tables } from '../../activities/mdm/match';
import { clusterRecords } from '../../activities/mdm/match-cluster';
import { publishGolden } from '../../activities/mdm/match-publish';
import { attributesOf, gammaColumn, levelCount } from '../../activities/mdm/logic/match-sql';
import { initialParams } from '../../activities/mdm/logic/em';
import { syntheticModel } from '../../activities/mdm/logic/synthetic-model';
import { createApp } from '../../api/app';
import type { Workspace } from '../../platform/port';
import { listCases, putOverrides } from '../../store/mdm/cases';
import { putModel } from '../../store/mdm/repo';
import { testAppDeps } from '../api/deps';
import { createHarness, type Harness } from '../helpers/harness';

/**
 * Publishing outcomes by score, on real Delta tables: the scored pairs are written as a run's scoring step
 * leaves them (scores 96, 80, 60 and 40), then the run's clustering, publishing and case steps run as in a job.
 */
let h: Harness;
let ws: Workspace;
let app: Express;
const model = syntheticModel();
const req = (runId: string) => ({ runId, catalog: 'clone_audit', model });
const t = tables(req('x'));
const params = initialParams(attributesOf(model).map((a) => levelCount(model, a)));

const SCORES: Record<string, number> = { a: 96, b: 80, c: 60, d: 40 };

beforeAll(async () => {
  h = await createHarness('mdm-outcomes');
  ws = h.open(h.config.workspace.root);
  await putModel(h.store.db, 'person', model as unknown as Record<string, unknown>);
  app = createApp(testAppDeps({ store: h.store, flags: { dataDir: h.config.data_dir }, open: async () => ws }));
  await ensureRecordsTable(ws, 'clone_audit', model);
  const at = '2026-01-05T10:00:00';
  const rows = Object.keys(SCORES).flatMap((k) =>
    [1, 2].map((n) => ({
      system: 'crm',
      record_id: `${k}${n}`,
      trust: 5,
      source_updated_at: at,
      first_name: `first${k}`,
      last_name: `last${k}`,
      // a1 and a2 tie on trust, priority and recency but differ in dob: a conflict for a steward
      dob: k === 'a' ? `1980-01-0${n}` : '1980-01-01',
      email: null,
      phone: null,
      zip: null,
      national_id: null,
      row_hash: `${k}${n}`,
      deleted: false,
      ingest_id: 'i1',
      changed_at: at,
      ingested_at: at,
    })),
  );
  await ws.insertRows(t.records, rows);
  await prepareMatch(ws, { ...req('prep'), maxPairs: 1000 });
  const gammas = attributesOf(model)
    .map((a) => `CAST(${levelCount(model, a) - 1} AS INT) AS \`${gammaColumn(a)}\``)
    .join(', ');
  const pairs = Object.entries(SCORES)
    .map(
      ([k, s]) =>
        `SELECT 'crm:${k}1' AS uid_l, 'crm:${k}2' AS uid_r, 'dob' AS rule, ${gammas}, 'r' AS run_id, CAST(${s} AS DOUBLE) AS score`,
    )
    .join(' UNION ALL ');
  await ws.createTableAs({ ref: t.pairs, query: pairs, replace: true });
}, 120_000);
afterAll(async () => h?.teardown());

async function run(runId: string) {
  await clusterRecords(ws, req(runId));
  const decisions = await stewardDecisions(h.store.db, 'person');
  const published = await publishGolden(ws, {
    ...req(runId),
    ts: new Date().toISOString(),
    overrides: decisions.overrides,
  });
  const cases = await openRunCases(ws, h.store.db, { ...req(runId), params, slaCalendar: 'US', decisions });
  return { published, cases };
}

const golden = async (recordId: string) => {
  const r = await request(app).get('/api/mdm/entities').query({ system: 'crm', record_id: recordId }).expect(200);
  expect(r.body).toHaveLength(1);
  return r.body[0] as { entity_id: string; status: string; reviewable: boolean; confidence_score: number };
};

test('scores of 96, 80, 60 and 40 give: active; under_review with a match_review case; a suspected_duplicate case; nothing. A re-run keeps every id and opens no case', async () => {
  const first = await run('run-1');
  // a: merged and active; b: merged, reviewable, under review; c and d: apart (two golden records each)
  expect(first.published).toMatchObject({ created: 6, active: 5, under_review: 1 });
  const [a1, a2, b1, b2, c1, c2, d1, d2] = await Promise.all(
    ['a1', 'a2', 'b1', 'b2', 'c1', 'c2', 'd1', 'd2'].map(golden),
  );
  expect(a1).toMatchObject({ entity_id: a2.entity_id, status: 'active', reviewable: false, confidence_score: 96 });
  expect(b1).toMatchObject({ entity_id: b2.entity_id, status: 'under_review', reviewable: true, confidence_score: 80 });
  expect(c1.entity_id).not.toBe(c2.entity_id);
  expect(d1.entity_id).not.toBe(d2.entity_id);
  expect([c1, c2, d1, d2].map((g) => [g.status, g.confidence_score])).toEqual(Array(4).fill(['active', 100]));

  const cases = await listCases(h.store.db, { entityType: 'person' });
  const view = cases
    .map((c) => ({ type: c.type, records: c.records.map((r) => r.record_id), score: c.score }))
    .sort((x, y) => x.type.localeCompare(y.type));
  expect(view).toEqual([
    { type: 'conflict_resolution', records: ['a1', 'a2'], score: null },
    { type: 'match_review', records: ['b1', 'b2'], score: 80 },
    { type: 'suspected_duplicate', records: ['c1', 'c2'], score: 60 },
  ]);
  const review = cases.find((c) => c.type === 'match_review')!;
  expect(review.entityIds).toEqual([b1.entity_id]);
  expect(review.attributes.find((x) => x.attribute === 'last_name')).toMatchObject({ values: ['lastb', 'lastb'] });
  expect(review.attributes.every((x) => typeof x.weight === 'number' || x.values.includes(null))).toBe(true);
  const conflict = cases.find((c) => c.type === 'conflict_resolution')!;
  expect(conflict.details).toEqual({ conflicts: { dob: ['1980-01-01', '1980-01-02'] } });

  const idsOf = async () =>
    (await Promise.all(['a1', 'a2', 'b1', 'b2', 'c1', 'c2', 'd1', 'd2'].map(golden))).map((g) => [
      g.entity_id,
      g.status,
    ]);
  const ids = await idsOf();
  const second = await run('run-2');
  expect(second.published).toMatchObject({ created: 0, merged: 0, archived: 0 });
  expect(second.cases.opened).toEqual({
    match_review: 0,
    suspected_duplicate: 0,
    negative_match_candidate: 0,
    conflict_resolution: 0,
  });
  expect(await idsOf()).toEqual(ids);
  expect(await listCases(h.store.db, { entityType: 'person' })).toHaveLength(3);

  // A steward's override wins over survivorship on every later run, with the steward as provenance.
  await putOverrides(h.store.db, 'person', { entity_id: b1.entity_id }, { last_name: 'override' }, 'alice', null);
  const versions = (await ws.tableHistory(t.golden)).length;
  await run('run-2b');
  // published with the survivorship values in one commit: one new version of the golden table, not two
  expect((await ws.tableHistory(t.golden)).length).toBe(versions + 1);
  const b = (await request(app).get(`/api/mdm/entities/${b1.entity_id}`).expect(200)).body;
  expect([b.attributes.last_name, b.provenance.last_name]).toEqual([
    'override',
    { system: 'steward', record_id: 'alice' },
  ]);
}, 120_000);

test('PATCH moves a golden record active ↔ under_review and either to archived; archived stays archived; other moves are 409', async () => {
  const { entity_id: id } = await golden('a1');
  const move = (status: string, expected: number) =>
    request(app).patch(`/api/mdm/entities/${id}`).send({ status }).expect(expected);
  expect((await move('under_review', 200)).body).toMatchObject({ status: 'under_review', reviewable: true });
  expect((await move('active', 200)).body).toMatchObject({ status: 'active', reviewable: false });
  const same = await move('active', 409);
  expect(same.body.error.details[0]).toEqual({
    path: 'body.status',
    message: 'from active the moves are: under_review, archived',
  });
  expect((await move('archived', 200)).body.status).toBe('archived');
  await move('active', 409);
  await move('under_review', 409);
  await request(app).patch(`/mdm/entities/GR-nope`).send({ status: 'active' }).expect(404);
  await request(app).patch(`/api/mdm/entities/${id}`).send({ status: 'merged_into_other' }).expect(400);
  // the next run keeps the steward's archive (same id, still archived)
  await run('run-3');
  expect(await golden('a1')).toMatchObject({ entity_id: id, status: 'archived' });
}, 120_000);
