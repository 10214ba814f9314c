import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { listDqEvents } from '../../store/data-quality/ops';
import { listRuns } from '../../store/data-quality/runs';
import { eventually } from '../helpers/eventually';
import { createHarness, type Harness } from '../helpers/harness';
import { harnessAppDeps } from '../helpers/harness-app';
import { ORDERS_FQN, seedOrders } from './fixtures';

/**
 * DQ schedules are Temporal Schedules. Temporal's time-skipping test server has no Schedules (temporalio/sdk-java
 * #1954), so firing by the cron is shown with the Schedule's own backfill on the dev server: Temporal evaluates
 * the `*\/20 * * * *` calendars over a past 40-minute window and starts the runs it finds there (two).
 */
let h: Harness;
let app: Express;
const MIN = 60_000;

beforeAll(async () => {
  h = await createHarness('dq-sched');
  const root = h.config.workspace.root;
  await seedOrders(h.open(root));
  app = createApp(harnessAppDeps(h));
  await request(app)
    .post('/api/governance/dqx/checks')
    .send({ table_fqn: ORDERS_FQN, check_function: 'is_not_null', arguments: { column: 'customer' } })
    .expect(201);
});
afterAll(async () => h?.teardown());

const S = '/api/data-quality/schedules';
/** Distinct scheduled runs (their workflow ids) that stored a result for the schedule. */
const runsOf = async (id: string) =>
  [...new Set((await listRuns(h.store.db, { limit: 1000 })).map((r) => r.jobId))].filter((j) =>
    j.startsWith(`dq-schedule-${id}`),
  );

test('a bad cron is a 400 naming body.cron; schedule_type needs its target', async () => {
  const bad = await request(app).post(S).send({ name: 'x', schedule_type: 'all', cron: '61 * * * *' }).expect(400);
  expect(bad.body.error.details[0].path).toBe('body.cron');
  const six = await request(app).post(S).send({ name: 'x', schedule_type: 'all', cron: '0 0 * * * *' }).expect(400);
  expect(six.body.error.message).toMatch(/5 fields/);
  const noTable = await request(app).post(S).send({ name: 'x', schedule_type: 'table', cron: '0 * * * *' }).expect(400);
  expect(noTable.body.error.details[0].path).toBe('body.table_fqn');
});

test('the cron fires DQ runs; pause and resume move the state in Temporal; run-now runs once; delete removes it', async () => {
  await h.withWorker(async () => {
    const created = (
      await request(app)
        .post(S)
        .send({ name: 'orders every 20 min', schedule_type: 'table', table_fqn: ORDERS_FQN, cron: '*/20 * * * *' })
        .expect(201)
    ).body;
    expect(created).toMatchObject({ status: 'active', last_run_at: null });
    expect(new Date(created.next_run_at).getUTCMinutes() % 20).toBe(0);
    const id = created.id as string;
    const handle = h.env.client.schedule.getHandle(`dq-schedule-${id}`);

    // Firing by the cron: the past hour without its edges [h-1:00:10, h-0:59:50] holds the :20 and :40 firings
    const hour = Math.floor(Date.now() / (60 * MIN)) * 60 * MIN;
    await handle.backfill({
      start: new Date(hour - 60 * MIN + 10_000),
      end: new Date(hour - 10_000),
      overlap: 'ALLOW_ALL',
    });
    const fired = await eventually(async () => ((await runsOf(id)).length === 2 ? runsOf(id) : null), {
      what: 'two scheduled DQ runs (the :20 and :40 firings of the past hour)',
      timeoutMs: 60_000,
    });
    expect(fired).toHaveLength(2);
    const stored = (await listRuns(h.store.db, { tableFqn: ORDERS_FQN })).filter((r) => fired.includes(r.jobId));
    expect(stored.map((r) => [r.passRate, r.totalRows])).toEqual([
      [80, 10],
      [80, 10],
    ]);

    const paused = (await request(app).post(`${S}/${id}/pause`).expect(200)).body;
    expect(paused.status).toBe('paused');
    expect((await handle.describe()).state.paused).toBe(true);
    await request(app).post(`${S}/${id}/pause`).expect(409);
    const resumed = (await request(app).post(`${S}/${id}/resume`).expect(200)).body;
    expect(resumed.status).toBe('active');
    expect((await handle.describe()).state.paused).toBe(false);
    await request(app).post(`${S}/${id}/resume`).expect(409);

    await request(app).post(`${S}/${id}/run`).expect(202);
    const listed = await eventually(
      async () => {
        const all = (await request(app).get(S).expect(200)).body as { id: string; last_run_status: string }[];
        const me = all.find((s) => s.id === id);
        return me?.last_run_status === 'COMPLETED' && (await runsOf(id)).length === 3 ? me : null;
      },
      { what: 'the run-now firing completed and shown as the last run', timeoutMs: 60_000 },
    );
    expect(listed).toMatchObject({
      last_run_id: expect.stringMatching(new RegExp(`^dq-schedule-${id}`)),
      next_run_at: expect.any(String),
    });

    await request(app).delete(`${S}/${id}`).expect(200);
    await expect(handle.describe()).rejects.toThrow();
    await request(app).post(`${S}/${id}/run`).expect(404);
  });
});

test('a scheduled run that fails is an incident (event and notification)', async () => {
  await h.withWorker(async () => {
    const s = (
      await request(app)
        .post(S)
        .send({ name: 'gone checks', schedule_type: 'checks', check_ids: ['no-such-check'], cron: '0 3 * * 1' })
        .expect(201)
    ).body;
    await request(app).post(`${S}/${s.id}/run`).expect(202);
    const [event] = await eventually(
      async () => {
        const e = await listDqEvents(h.store.db, { type: 'scheduled_run_failed' });
        return e.length ? e : null;
      },
      { what: 'a scheduled_run_failed event', timeoutMs: 60_000 },
    );
    expect(event.message).toContain('no enabled checks for schedule gone checks');
    const notes = (await request(app).get('/api/notifications').expect(200)).body;
    expect(JSON.stringify(notes)).toContain('scheduled_run_failed');
    await request(app).delete(`${S}/${s.id}`).expect(200);
  });
});
