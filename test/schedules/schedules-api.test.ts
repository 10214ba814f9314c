import request from 'supertest';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { scheduledCloneSubmitter } from '../../api/schedules/submitter';
import { recentNotifications } from '../../store/notifications/repo';
import { eventually, type WorkerOptions } from '../helpers/harness';
import { realStack, type RealStack } from '../jobs/real-stack';

/**
 * Clone schedules on real Temporal Schedules (dev server), a real worker and the local lakehouse. Temporal's
 * time-skipping test server has no Schedule service ("Failed to create schedule"), so an hourly cadence is
 * exercised with the Schedule's own backfill: Temporal evaluates the 1h spec over a past three-hour window and
 * starts the three runs it finds, one after the other (overlap BUFFER_ALL for the backfill), without waiting.
 */
let stack: RealStack;
let deps: AppDeps;
let app: ReturnType<typeof createApp>;
let worker: WorkerOptions;
beforeAll(async () => {
  stack = await realStack('schedules');
  deps = stack.appDeps();
  app = createApp(deps);
  worker = {
    deps: {
      workspaces: deps.workspaces,
      submitClone: scheduledCloneSubmitter({ ...deps, client: stack.h.env.client }),
    },
  };
}, 120_000);
afterAll(async () => {
  for (const id of ['clone-schedule-hourly', 'clone-schedule-twice'])
    await stack?.h.env.client.schedule
      .getHandle(id)
      .delete()
      .catch(() => undefined);
  await stack?.teardown();
});

const HOUR = 3_600_000;

/** Asks the Schedule to run the three hourly instants of the last three full hours. */
async function backfillThreeHours(scheduleId: string): Promise<number[]> {
  const hour = Math.floor(Date.now() / HOUR) * HOUR;
  await stack.h.env.client.schedule.getHandle(scheduleId).backfill({
    start: new Date(hour - 3 * HOUR - HOUR / 2),
    end: new Date(hour - HOUR / 2),
    overlap: 'BUFFER_ALL',
  });
  return [hour - 3 * HOUR, hour - 2 * HOUR, hour - HOUR];
}

async function runsOf(scheduleId: string, n: number) {
  return eventually(
    async () => {
      const runs = (await request(app).get(`/api/schedule/${scheduleId}/runs`).expect(200)).body as any[];
      return runs.length >= n && runs.every((r) => r.outcome !== 'running') ? runs.reverse() : null;
    },
    { timeoutMs: 90_000, what: `${n} finished runs of ${scheduleId}` },
  );
}

test('an hourly schedule with drift_check runs three times: one clone, then two runs skipped with the reason', async () => {
  await stack.h.withWorker(async () => {
    const created = await request(app)
      .post('/api/schedule')
      .send({
        name: 'hourly',
        schedule: { interval: '1h', drift_check: true },
        clone_options: { source_catalog: 'prod', destination_catalog: 'prod_hourly', clone_type: 'SHALLOW' },
      })
      .expect(201);
    const id = created.body.schedule_id as string;
    expect(id).toBe('clone-schedule-hourly');
    expect(created.body).toMatchObject({ status: 'active', paused: false, drift_check: true, max_runs: 0 });
    const next = (created.body.next_run_times as string[]).map((t) => Date.parse(t));
    expect(next.length).toBeGreaterThan(2);
    expect(next[1] - next[0]).toBe(HOUR);

    const instants = await backfillThreeHours(id);
    const runs = await runsOf(id, 3);
    expect(runs.map((r) => Date.parse(r.scheduled_at))).toEqual(instants);
    expect(runs.map((r) => r.outcome)).toEqual(['completed', 'skipped', 'skipped']);

    // The clone of run 1 is a normal clone job of the kernel.
    const jobId = runs[0].job_id as string;
    const job = (await request(app).get(`/api/jobs/${jobId}`).expect(200)).body;
    expect(job).toMatchObject({ job_type: 'clone', status: 'completed' });
    const view = (await request(app).get(`/api/schedule/${id}`).expect(200)).body;
    expect(view).toMatchObject({ clones: 1, skipped: 2, failed: 0, last_clone_job_id: jobId });
    for (const skipped of runs.slice(1)) {
      expect(skipped.job_id).toBeNull();
      expect(skipped.reason).toContain('skipped: source catalog prod unchanged since the last scheduled clone');
      expect(skipped.reason).toContain(`${jobId} (started ${view.last_clone_started_at}`);
      expect(skipped.reason).toContain(`completed ${view.last_clone_completed_at}`);
    }
    const notes = await recentNotifications(stack.h.store.db, 50);
    expect(notes.filter((n) => n.type === 'skipped').map((n) => n.message)).toEqual(
      runs
        .slice(1)
        .map((r) => r.reason)
        .reverse(),
    );
    expect(notes.some((n) => n.type === 'schedule_success' && n.jobId === jobId)).toBe(true);

    // The source changes: the next run (triggered now) clones again.
    const ws = stack.h.open(stack.root);
    await ws.insertRows({ catalog: 'prod', schema: 'sales', name: 'orders' }, [
      { id: 1000, region: 'EU', amount: '1.00' },
    ]);
    await request(app).post(`/api/schedule/${id}/trigger`).expect(200);
    const after = await runsOf(id, 4);
    expect(after[3].outcome).toBe('completed');
    expect(after[3].reason).toContain('changed: sales.orders');
  }, worker);
}, 180_000);

test('max_runs 2 ends the schedule after two clones and pauses its Temporal Schedule', async () => {
  await stack.h.withWorker(async () => {
    const id = (
      await request(app)
        .post('/api/schedule')
        .send({
          name: 'twice',
          schedule: { interval: '1h', max_runs: 2 },
          clone_options: { source_catalog: 'prod', destination_catalog: 'prod_twice', clone_type: 'SHALLOW' },
        })
        .expect(201)
    ).body.schedule_id as string;
    await backfillThreeHours(id);
    const runs = await runsOf(id, 3);
    expect(runs.map((r) => r.outcome)).toEqual(['completed', 'completed', 'ended']);
    expect(runs[2].reason).toContain('max_runs 2 reached');
    const view = (await request(app).get(`/api/schedule/${id}`).expect(200)).body;
    expect(view).toMatchObject({ status: 'ended', paused: true, clones: 2, next_run_times: [] });
    expect(view.note).toContain('max_runs 2 reached');
    const jobs = (await request(app).get('/api/clone/jobs').expect(200)).body as any[];
    expect(jobs.filter((j) => j.destination_catalog === 'prod_twice')).toHaveLength(2);
    await request(app).post(`/api/schedule/${id}/resume`).expect(409);
  }, worker);
}, 180_000);

test('schedule requests are checked before anything is created', async () => {
  const base = { clone_options: { source_catalog: 'prod', destination_catalog: 'x_copy' } };
  const both = await request(app)
    .post('/api/schedule')
    .send({ ...base, schedule: { interval: '1h', cron: '0 * * * *' } })
    .expect(400);
  expect(both.body.error.details[0].path).toBe('body.schedule.cron');
  const quartz = await request(app)
    .post('/api/schedule')
    .send({ ...base, schedule: { cron: '0 0 12 * * MON' } })
    .expect(400);
  expect(quartz.body.error.details[0]).toMatchObject({ path: 'body.schedule.cron' });
  expect(quartz.body.error.details[0].message).toContain('must be "?"');
  const missing = await request(app)
    .post('/api/schedule')
    .send({ schedule: { interval: '1h' }, clone_options: { source_catalog: 'nope', destination_catalog: 'x' } })
    .expect(404);
  expect(missing.body.error.details[0].path).toBe('body.clone_options.source_catalog');
  const secret = await request(app)
    .post('/api/schedule')
    .send({
      schedule: { interval: '1d' },
      clone_options: {
        ...base.clone_options,
        target_workspace: { host: 'https://x.cloud.databricks.com', token: 'dapi-secret', warehouse_id: 'w' },
      },
    })
    .expect(400);
  expect(secret.body.error.details[0].path).toBe('body.clone_options.target_workspace.token');
  expect(JSON.stringify(secret.body)).not.toContain('dapi-secret');
  expect((await request(app).get('/api/schedule').expect(200)).body.map((s: any) => s.name)).not.toContain(
    'prod-to-x_copy',
  );
});
