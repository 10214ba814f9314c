import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { slaDueAt } from '../../activities/mdm/logic/sla';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Workspace } from '../../platform/port';
import { ROLES, type Role } from '../../schemas/governance';
import type { Store } from '../../store/db';
import { cannotLinksFor, mustLinksFor, openCases, overridesFor } from '../../store/mdm/cases';
import { putModel } from '../../store/mdm/repo';
import { listNegativeMatchRules } from '../../store/mdm/rules';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

const KEYS = Object.fromEntries(ROLES.map((r) => [r, `mdm-steward-${r}-key-0123456789`])) as Record<Role, string>;
const as = (role: Role) => ({ Authorization: `Bearer ${KEYS[role]}` });

let store: Store;
let ws: Workspace;
let root: string;
let app: Express;
let deps: AppDeps;

const G = 'clone_audit.mdm.golden_records_person';
const M = 'clone_audit.mdm.golden_members_person';
const rec = (system: string, record_id: string) => ({ system, record_id });

/** Golden tables as a match run publishes them: A (crm:1+erp:1, under review), B, C, D (crm:3+erp:3), E. */
async function seedGolden(w: Workspace) {
  await w.createCatalog({ name: 'clone_audit', ifNotExists: true });
  await w.createSchema({ catalog: 'clone_audit', name: 'mdm', ifNotExists: true });
  const ts = `CAST('2026-11-01 00:00:00' AS TIMESTAMP)`;
  const golden = [
    ['GR-A', 'under_review', 'TRUE', 82, 2, "'ann lee'", "'crm:1'", "'ann@x.org'", "'erp:1'"],
    ['GR-B', 'active', 'FALSE', 100, 1, "'bob ray'", "'crm:2'", 'NULL', 'NULL'],
    ['GR-C', 'active', 'FALSE', 100, 1, "'bob raye'", "'erp:2'", "'bob@x.org'", "'erp:2'"],
    ['GR-D', 'under_review', 'TRUE', 80, 2, "'cy twin'", "'crm:3'", "'cy@x.org'", "'crm:3'"],
    ['GR-E', 'active', 'FALSE', 99, 2, "'dee'", "'crm:4'", "'dee@x.org'", "'crm:4'"],
  ].map(
    ([id, status, rv, conf, n, name, ns, email, es]) =>
      `SELECT '${id}' AS entity_id, 'person' AS entity_type, '${status}' AS status, ${rv} AS reviewable, ` +
      `CAST(${conf} AS DOUBLE) AS confidence_score, CAST(${n} AS BIGINT) AS record_count, CAST(${name} AS STRING) AS name, ` +
      `CAST(${ns} AS STRING) AS name__source, CAST(${email} AS STRING) AS email, CAST(${es} AS STRING) AS email__source, ` +
      `CAST(NULL AS STRING) AS merged_into, ${ts} AS created_at, ${ts} AS updated_at, 'run-1' AS run_id`,
  );
  await w.createTableAs({
    ref: { catalog: 'clone_audit', schema: 'mdm', name: 'golden_records_person' },
    query: golden.join(' UNION ALL '),
  });
  const members = [
    ['GR-A', 'crm', '1'],
    ['GR-A', 'erp', '1'],
    ['GR-B', 'crm', '2'],
    ['GR-C', 'erp', '2'],
    ['GR-D', 'crm', '3'],
    ['GR-D', 'erp', '3'],
    ['GR-E', 'crm', '4'],
    ['GR-E', 'erp', '4'],
  ].map(
    ([e, s, r]) =>
      `SELECT '${e}' AS entity_id, '${s}:${r}' AS uid, '${s}' AS system, '${r}' AS record_id, 'run-1' AS run_id`,
  );
  await w.createTableAs({
    ref: { catalog: 'clone_audit', schema: 'mdm', name: 'golden_members_person' },
    query: members.join(' UNION ALL '),
  });
  await w.createTableAs({
    ref: { catalog: 'clone_audit', schema: 'mdm', name: 'source_records_person' },
    query:
      `SELECT 'erp' AS system, '3' AS record_id, 1 AS trust, ${ts} AS source_updated_at, 'cy twin' AS name, ` +
      `'cy2@x.org' AS email, 'h' AS row_hash, FALSE AS deleted, 'i' AS ingest_id, ${ts} AS changed_at, ${ts} AS ingested_at`,
  });
}

const rows = async (sql: string) => (await ws.query(sql)).rows;

beforeAll(async () => {
  store = await createTestStore();
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-mdm-steward-'));
  ws = new LocalWorkspace({ root, user: 'lakeward' });
  await seedGolden(ws);
  await putModel(store.db, 'person', { entity_type: 'person' });
  deps = testAppDeps({ store, open: async () => ws });
  const keys = ROLES.map((role) => ({ name: `${role}-bot`, key: KEYS[role], key_env: null, role }));
  deps.config = { ...deps.config, api_server: { ...deps.config.api_server, keys } };
  app = createApp(deps);
  const due = slaDueAt(deps.config.mdm.sla_calendar);
  await openCases(
    store.db,
    [
      {
        entity_type: 'person',
        type: 'match_review',
        records: [rec('crm', '1'), rec('erp', '1')],
        score: 82,
        attributes: [{ attribute: 'name', values: ['ann lee', 'ann lee'], weight: 6.1 }],
      },
      { entity_type: 'person', type: 'suspected_duplicate', records: [rec('crm', '2'), rec('erp', '2')], score: 60 },
      { entity_type: 'person', type: 'match_review', records: [rec('crm', '3'), rec('erp', '3')], score: 80 },
      { entity_type: 'person', type: 'conflict_resolution', records: [rec('crm', '4'), rec('erp', '4')] },
    ],
    due,
  );
  // One case opened three weeks ago: overdue now.
  await openCases(
    store.db,
    [{ entity_type: 'person', type: 'suspected_duplicate', records: [rec('crm', '9'), rec('erp', '9')] }],
    due,
    new Date(Date.now() - 21 * 86_400_000),
  );
});
afterAll(async () => {
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

const caseOf = async (type: string, system: string, id: string) => {
  const r = await request(app)
    .get('/api/mdm/stewardship')
    .query({ type, status: 'open' })
    .set(as('viewer'))
    .expect(200);
  const c = r.body.find((x: { records: { system: string; record_id: string }[] }) =>
    x.records.some((y) => y.system === system && y.record_id === id),
  );
  expect(c).toBeDefined();
  return c as { case_id: string; sla_state: string; due_at: string; attributes: unknown[] };
};

test('cases list with SLA state, type and status filters; the overdue case shows overdue', async () => {
  const all = await request(app).get('/mdm/stewardship').set(as('viewer')).expect(200);
  expect(all.body).toHaveLength(5);
  const overdue = await request(app).get('/api/mdm/stewardship').query({ sla_state: 'overdue' }).set(as('viewer'));
  expect(overdue.body.map((c: { records: { record_id: string }[] }) => c.records[0].record_id)).toEqual(['9']);
  const review = await caseOf('match_review', 'crm', '1');
  expect(review.sla_state).toBe('on_track');
  expect(review.attributes).toEqual([{ attribute: 'name', values: ['ann lee', 'ann lee'], weight: 6.1 }]);
});

test('reassign (steward) and assigned_to=me', async () => {
  const c = await caseOf('match_review', 'crm', '1');
  await request(app)
    .post(`/api/mdm/stewardship/${c.case_id}/reassign`)
    .set(as('editor'))
    .send({ to: 'steward-bot' })
    .expect(403);
  await request(app)
    .post(`/api/mdm/stewardship/${c.case_id}/reassign`)
    .set(as('steward'))
    .send({ to: 'steward-bot' })
    .expect(200);
  const mine = await request(app)
    .get('/api/mdm/stewardship')
    .query({ assigned_to: 'me' })
    .set(as('steward'))
    .expect(200);
  expect(mine.body.map((x: { case_id: string }) => x.case_id)).toEqual([c.case_id]);
  const none = await request(app).get('/api/mdm/stewardship').query({ assigned_to: 'me' }).set(as('admin')).expect(200);
  expect(none.body).toEqual([]);
});

test('approve_match on a reviewable golden record makes it active at once and remembers a must-link', async () => {
  const c = await caseOf('match_review', 'crm', '1');
  await request(app)
    .post(`/api/mdm/stewardship/${c.case_id}/resolve`)
    .set(as('editor'))
    .send({ action: 'approve_match' })
    .expect(403);
  const r = await request(app)
    .post(`/api/mdm/stewardship/${c.case_id}/resolve`)
    .set(as('steward'))
    .send({ action: 'approve_match' })
    .expect(200);
  expect(r.body).toMatchObject({
    status: 'resolved',
    resolved_by: 'steward-bot',
    effect: { merged_into: 'GR-A', golden_updated: true },
  });
  expect(await rows(`SELECT status, reviewable FROM ${G} WHERE entity_id = 'GR-A'`)).toEqual([
    { status: 'active', reviewable: false },
  ]);
  expect(await mustLinksFor(store.db, 'person')).toEqual([
    { a: rec('crm', '1'), b: rec('erp', '1'), case_id: c.case_id },
  ]);
  // Resolving twice is a conflict.
  await request(app)
    .post(`/mdm/stewardship/${c.case_id}/resolve`)
    .set(as('steward'))
    .send({ action: 'reject' })
    .expect(409);
});

test('approve_match on a suspected duplicate merges the two golden records at once', async () => {
  const c = await caseOf('suspected_duplicate', 'crm', '2');
  const r = await request(app)
    .post(`/api/mdm/stewardship/${c.case_id}/resolve`)
    .set(as('steward'))
    .send({ action: 'approve_match' })
    .expect(200);
  expect(r.body.effect).toMatchObject({ merged_into: 'GR-B', golden_updated: true });
  expect(await rows(`SELECT entity_id, system, record_id FROM ${M} WHERE record_id = '2' ORDER BY system`)).toEqual([
    { entity_id: 'GR-B', system: 'crm', record_id: '2' },
    { entity_id: 'GR-B', system: 'erp', record_id: '2' },
  ]);
  const g = await rows(
    `SELECT entity_id, status, record_count, email, email__source, merged_into FROM ${G} WHERE entity_id IN ('GR-B', 'GR-C') ORDER BY entity_id`,
  );
  expect(g).toEqual([
    {
      entity_id: 'GR-B',
      status: 'active',
      record_count: 2,
      email: 'bob@x.org',
      email__source: 'erp:2',
      merged_into: null,
    },
    {
      entity_id: 'GR-C',
      status: 'merged_into_other',
      record_count: 1,
      email: 'bob@x.org',
      email__source: 'erp:2',
      merged_into: 'GR-B',
    },
  ]);
});

test('reject with flag_negative_match splits at once, remembers a cannot-link and adds a pair rule', async () => {
  const c = await caseOf('match_review', 'crm', '3');
  const r = await request(app)
    .post(`/api/mdm/stewardship/${c.case_id}/resolve`)
    .set(as('steward'))
    .send({ action: 'reject', flag_negative_match: true, notes: 'twins' })
    .expect(200);
  const fresh = r.body.effect.split_out as string;
  expect(fresh).toMatch(/^GR-[0-9a-f]{16}$/);
  expect(await rows(`SELECT entity_id, record_id FROM ${M} WHERE record_id = '3' ORDER BY system`)).toEqual([
    { entity_id: 'GR-D', record_id: '3' },
    { entity_id: fresh, record_id: '3' },
  ]);
  expect(await rows(`SELECT status, record_count, email FROM ${G} WHERE entity_id = '${fresh}'`)).toEqual([
    { status: 'active', record_count: 1, email: 'cy2@x.org' },
  ]);
  expect(await cannotLinksFor(store.db, 'person')).toEqual([
    { a: rec('crm', '3'), b: rec('erp', '3'), case_id: c.case_id },
  ]);
  const rules = await listNegativeMatchRules(store.db, { entityType: 'person' });
  expect(rules).toHaveLength(1);
  expect(rules[0]).toMatchObject({
    id: r.body.effect.negative_match_rule,
    type: 'pair',
    reason: 'twins',
    createdBy: 'steward-bot',
  });
  // The pair stays closed: a match run opening the same case again changes nothing.
  const again = await openCases(
    store.db,
    [{ entity_type: 'person', type: 'match_review', records: [rec('erp', '3'), rec('crm', '3')] }],
    slaDueAt(''),
  );
  expect(again).toEqual({ opened: [], existing: 1 });
});

test('override sets the values now and keeps them for survivorship; an action the type does not take is a 422', async () => {
  const c = await caseOf('conflict_resolution', 'crm', '4');
  await request(app)
    .post(`/api/mdm/stewardship/${c.case_id}/resolve`)
    .set(as('steward'))
    .send({ action: 'approve_match' })
    .expect(422);
  const bad = await request(app)
    .post(`/api/mdm/stewardship/${c.case_id}/resolve`)
    .set(as('steward'))
    .send({ action: 'override', attribute_overrides: { shoe_size: '9' } })
    .expect(422);
  expect(bad.body.error.details[0].path).toBe('body.attribute_overrides.shoe_size');
  await request(app)
    .post(`/api/mdm/stewardship/${c.case_id}/resolve`)
    .set(as('steward'))
    .send({ action: 'override', attribute_overrides: { name: 'dee diaz' } })
    .expect(200);
  expect(await rows(`SELECT name, name__source FROM ${G} WHERE entity_id = 'GR-E'`)).toEqual([
    { name: 'dee diaz', name__source: 'steward' },
  ]);
  expect(await overridesFor(store.db, 'person')).toMatchObject([
    { entity_id: 'GR-E', attribute: 'name', value: 'dee diaz' },
  ]);
});

test('delete is admin only', async () => {
  const c = await caseOf('suspected_duplicate', 'crm', '9');
  await request(app).delete(`/api/mdm/stewardship/${c.case_id}`).set(as('steward')).expect(403);
  await request(app).delete(`/api/mdm/stewardship/${c.case_id}`).set(as('admin')).expect(200);
  await request(app).get(`/api/mdm/stewardship/${c.case_id}`).set(as('viewer')).expect(404);
});

test('a steward overrides a golden record directly: written now and kept for later runs', async () => {
  const body = { attributes: { email: 'ann@new.org' } };
  await request(app).post('/api/mdm/entities/GR-A/overrides').set(as('editor')).send(body).expect(403);
  await request(app).post('/api/mdm/entities/GR-NOPE/overrides').set(as('steward')).send(body).expect(404);
  const r = await request(app).post('/mdm/entities/GR-A/overrides').set(as('steward')).send(body).expect(200);
  expect(r.body).toEqual({ entity_id: 'GR-A', entity_type: 'person', attributes: ['email'] });
  expect(await rows(`SELECT email, email__source FROM ${G} WHERE entity_id = 'GR-A'`)).toEqual([
    { email: 'ann@new.org', email__source: 'steward' },
  ]);
  const kept = (await overridesFor(store.db, 'person')).find((o) => o.entity_id === 'GR-A');
  expect(kept).toMatchObject({ attribute: 'email', value: 'ann@new.org', records: [rec('crm', '1'), rec('erp', '1')] });
});
