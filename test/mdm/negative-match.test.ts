import type { Express } from 'express';
import request from 'supertest';
import type { Harness } from '../helpers/harness';
import { closeMdmTestApp, createMdmTestApp, jobFinished, syntheticPeople } from './helpers';

let h: Harness;
let app: Express;
let root: string;
type Ref = { system: string; record_id: string };
let duplicates: [Ref, Ref][];

const finished = (jobId: string) => jobFinished(app, jobId, 120_000);

const match = async () => {
  const res = await request(app).post('/api/mdm/match/run').send({ entity_type: 'person' }).expect(202);
  const job = await finished(res.body.job_id);
  expect(job.status).toBe('completed');
  return job.result;
};

const entityOf = async (ref: Ref) => {
  const r = await request(app).get('/api/mdm/entities').query(ref).expect(200);
  expect(r.body).toHaveLength(1);
  return r.body[0] as { entity_id: string; status: string; reviewable: boolean };
};

const blocked = async () => {
  const rules = (await request(app).get('/api/mdm/negative-match').query({ entity_type: 'person' }).expect(200)).body;
  return Object.fromEntries(rules.map((r: { id: string; blocked_attempts: number }) => [r.id, r.blocked_attempts]));
};

beforeAll(async () => {
  ({ h, app, root } = await createMdmTestApp('mdm-negative'));
  duplicates = (await syntheticPeople(app, 600, 11)).examples.duplicates;
}, 120_000);
afterAll(async () => closeMdmTestApp(h));

test('a pattern with ; or a subquery, an attribute the model lacks, or a pair of three is a 422 naming the field', async () => {
  const bad = async (body: Record<string, unknown>, path: string, message: RegExp) => {
    const r = await request(app)
      .post('/api/mdm/negative-match')
      .send({ entity_type: 'person', reason: 'test', ...body })
      .expect(422);
    expect(r.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect(JSON.stringify(r.body.error.details)).toMatch(message);
  };
  await bad({ type: 'pattern', predicate: 'a.email = b.email; DROP TABLE x' }, 'body.predicate', /without ;/);
  await bad(
    { type: 'pattern', predicate: 'a.email IN (SELECT email FROM clone_audit.mdm.x)' },
    'body.predicate',
    /subquery/,
  );
  await bad({ type: 'pattern', predicate: 'a.salary > b.salary' }, 'body.predicate', /not an attribute/);
  await bad({ type: 'pattern', predicate: "getenv('HOME') = a.email" }, 'body.predicate', /not allowed/);
  const three = [duplicates[0][0], duplicates[0][1], duplicates[1][0]];
  await bad({ type: 'pair', records: three }, 'body.records', /exactly 2/);
  await request(app)
    .post('/api/mdm/negative-match')
    .send({ entity_type: 'person', type: 'pair', records: duplicates[0] })
    .expect(400);
});

test('pair, group and pattern rules each keep their records apart; blocked_attempts rises once per run; an inactive rule lets them merge', async () => {
  await h.withWorker(async () => {
    const ingest = await request(app).post('/api/mdm/ingest').send({ entity_type: 'person' }).expect(202);
    expect((await finished(ingest.body.job_id)).status).toBe('completed');
    await match();
    // Three duplicate pairs, each merged by the first run (the examples are easy duplicates).
    const [p1, p2, p3] = duplicates;
    for (const [a, b] of [p1, p2, p3]) expect((await entityOf(a)).entity_id).toBe((await entityOf(b)).entity_id);
    const g1 = (await entityOf(p1[0])).entity_id;

    const pair = (
      await request(app)
        .post('/mdm/negative-match')
        .send({ entity_type: 'person', type: 'pair', records: p1, reason: 'different people (steward call)' })
        .expect(201)
    ).body;
    expect(pair).toMatchObject({ type: 'pair', status: 'active', blocked_attempts: 0, records: p1 });
    // The golden record holding both is now under review until the next run splits it.
    expect(pair.under_review).toEqual([g1]);
    expect(await entityOf(p1[0])).toMatchObject({ entity_id: g1, status: 'under_review', reviewable: true });

    // A group by golden records: p2's cluster and p3's cluster stay apart, and so do p2's own two records
    // when given as records.
    const group = (
      await request(app)
        .post('/api/mdm/negative-match')
        .send({ entity_type: 'person', type: 'group', records: [p2[0], p2[1], p3[0]], reason: 'household' })
        .expect(201)
    ).body;
    expect(group.members).toHaveLength(3);

    // A pattern keeping p3's two records apart by their own values.
    const ws = h.open(root);
    const vals = (
      await ws.query(
        `SELECT system, record_id, email FROM clone_audit.mdm.source_records_person WHERE ` +
          `(system = '${p3[0].system}' AND record_id = '${p3[0].record_id}') OR (system = '${p3[1].system}' AND record_id = '${p3[1].record_id}')`,
      )
    ).rows;
    expect(vals.every((v) => v.email)).toBe(true);
    const [e0, e1] = [p3[0], p3[1]].map(
      (r) => vals.find((v) => v.system === r.system && v.record_id === r.record_id)!.email as string,
    );
    const pattern = (
      await request(app)
        .post('/api/mdm/negative-match')
        .send({
          entity_type: 'person',
          type: 'pattern',
          predicate: `a.email = '${e0}' AND b.email = '${e1}' AND a.email IS NOT NULL`,
          reason: 'shared mailbox',
        })
        .expect(201)
    ).body;

    const run1 = await match();
    for (const [a, b] of [p1, p2, p3]) expect((await entityOf(a)).entity_id).not.toBe((await entityOf(b)).entity_id);
    // The split keeps the id on one side; both sides are confident single-cluster records again.
    expect([(await entityOf(p1[0])).entity_id, (await entityOf(p1[1])).entity_id]).toContain(g1);
    expect(run1.negative_match.blocked_attempts).toEqual({ [pair.id]: 1, [group.id]: 1, [pattern.id]: 1 });
    expect(await blocked()).toEqual({ [pair.id]: 1, [group.id]: 1, [pattern.id]: 1 });

    await match();
    expect(await blocked()).toEqual({ [pair.id]: 2, [group.id]: 2, [pattern.id]: 2 });

    const off = await request(app).patch(`/api/mdm/negative-match/${pair.id}`).send({ status: 'inactive' }).expect(200);
    expect(off.body.status).toBe('inactive');
    const run3 = await match();
    expect((await entityOf(p1[0])).entity_id).toBe((await entityOf(p1[1])).entity_id);
    expect((await entityOf(p2[0])).entity_id).not.toBe((await entityOf(p2[1])).entity_id);
    expect(run3.negative_match.rules).toBe(2);
    expect(await blocked()).toEqual({ [pair.id]: 2, [group.id]: 3, [pattern.id]: 3 });

    await request(app).delete(`/mdm/negative-match/${pattern.id}`).expect(200);
    await request(app).get(`/api/mdm/negative-match/${pattern.id}`).expect(404);
  });
}, 400_000);
