import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../../api/app';
import { pipelineScheduleId } from '../../workflows/pipeline/definitions';
import { realStack, type RealStack } from '../jobs/real-stack';

/**
 * Job clone on the local lakehouse's registry (the same JobRegistry port the Databricks Jobs API sits behind):
 * Lakeward pipelines and clone schedules as Jobs-shaped settings, with real Temporal Schedules behind them.
 */
let s: RealStack;
let app: ReturnType<typeof createApp>;
const api = () => request(app);
const tag = randomBytes(3).toString('hex');

type Json = Record<string, unknown>;
type Task = { task_key: string; depends_on?: { task_key: string }[] };

beforeAll(async () => {
  s = await realStack('jobclone-local');
  app = createApp(s.appDeps());
}, 120_000);
afterAll(async () => {
  for (const p of (await api().get('/api/pipeline/pipelines')).body.pipelines ?? [])
    await api().delete(`/api/pipeline/pipelines/${p.pipeline_id}`);
  for (const k of ['schedule', 'generate/clone-jobs'])
    for (const x of (await api().get(`/api/${k}`)).body ?? []) await api().delete(`/api/schedule/${x.schedule_id}`);
  await s?.teardown();
});

const temporalPaused = async (scheduleId: string) =>
  (await s.h.env.client.schedule.getHandle(scheduleId).describe()).state.paused;
const job = async (id: string) => (await api().get(`/api/job-clone/${id}`).expect(200)).body as { settings: Json };
const diff = async (a: string, b: string) =>
  (await api().post('/api/job-clone/diff').send({ job_id_a: a, job_id_b: b }).expect(200)).body;
const backup = async (ids: string[]) =>
  (await api().post('/api/job-clone/backup').send({ job_ids: ids }).expect(200)).body;
const restore = async (definitions: unknown[]) =>
  (await api().post('/api/job-clone/restore').send({ definitions }).expect(200)).body.results;
const pausedSettings = (settings: Json, block = 'schedule') => ({
  ...settings,
  [block]: { ...(settings[block] as Json), pause_status: 'PAUSED' },
});

describe('a 130-step scheduled pipeline', () => {
  let id: string;
  let pipelineId: string;
  beforeAll(async () => {
    const steps = Array.from({ length: 130 }, (_, i) => ({
      type: 'notify',
      name: `s${i}`,
      config: { message: `step ${i}` },
      ...(i % 10 === 3 ? { on_failure: { retry: 2 } } : {}),
    }));
    const res = await api()
      .post('/api/pipeline/pipelines')
      .send({ name: `big_${tag}`, steps, schedule: { cron: '30 2 * * 1-5', timezone: 'Europe/Paris' } })
      .expect(201);
    pipelineId = res.body.pipeline_id;
    id = `pipeline:${pipelineId}`;
  });

  test('shows as a Jobs-shaped job: 130 chained tasks, its cron as Quartz, unpaused', async () => {
    const { settings } = await job(id);
    const tasks = settings.tasks as Task[];
    expect(tasks).toHaveLength(130);
    expect(tasks[129]).toMatchObject({ task_key: 's129', depends_on: [{ task_key: 's128' }] });
    expect(settings.schedule).toEqual({
      quartz_cron_expression: '0 30 2 ? * 2-6',
      timezone_id: 'Europe/Paris',
      pause_status: 'UNPAUSED',
    });
    expect(await temporalPaused(pipelineScheduleId(pipelineId))).toBe(false);
    const list = (
      await api()
        .get('/api/job-clone')
        .query({ name: `big_${tag}` })
        .expect(200)
    ).body.jobs;
    expect(list.map((j: { job_id: string }) => j.job_id)).toEqual([id]);
  });

  test('clones whole and paused: every step, and a paused Temporal Schedule firing on the same times', async () => {
    const res = await api().post('/api/job-clone/clone').send({ job_id: id }).expect(201);
    const copyId = (res.body.new_job_id as string).slice('pipeline:'.length);
    const copy = (await api().get(`/api/pipeline/pipelines/${copyId}`).expect(200)).body;
    const original = (await api().get(`/api/pipeline/pipelines/${pipelineId}`).expect(200)).body;
    expect(copy.steps).toEqual(original.steps);
    expect(copy.name).toBe(`big_${tag}_clone`);
    expect(copy.schedule).toEqual({ cron: '0 30 2 ? * 2-6', timezone: 'Europe/Paris', paused: true });
    expect(await temporalPaused(pipelineScheduleId(copyId))).toBe(true);
    const [a, b] = await Promise.all(
      [pipelineId, copyId].map((p) => s.h.env.client.schedule.getHandle(pipelineScheduleId(p)).describe()),
    );
    // The Quartz form fires when the 5-field cron did: the same calendars but for their comment (the expression).
    const when = (cals: typeof a.spec.calendars) => cals?.map(({ comment: _c, ...c }) => c);
    expect(when(b.spec.calendars)).toEqual(when(a.spec.calendars));
    expect(a.spec.calendars).toHaveLength(1);
    expect((await diff(id, res.body.new_job_id)).diffs).toEqual([
      { path: '/name', kind: 'changed', a: `big_${tag}`, b: `big_${tag}_clone` },
      { path: '/schedule/pause_status', kind: 'changed', a: 'UNPAUSED', b: 'PAUSED' },
    ]);
  });

  test('backup → restore round-trips (paused); tasks restored in reverse order give the same pipeline', async () => {
    const b = await backup([id]);
    expect(b.results).toEqual([{ job_id: id, status: 'ok' }]);
    const def = b.definitions[0];
    const [restored] = await restore([def]);
    expect(restored).toMatchObject({ source_job_id: id, status: 'ok' });
    const back = await backup([restored.new_job_id]);
    expect(back.definitions[0].settings).toEqual(pausedSettings(def.settings));

    const reversed = { ...def.settings, tasks: [...(def.settings.tasks as Task[])].reverse() };
    const [again] = await restore([{ job_id: id, settings: reversed }]);
    expect(again.status).toBe('ok');
    expect(await diff(restored.new_job_id, again.new_job_id)).toMatchObject({ identical: true, diffs: [] });
    const steps = (
      await api()
        .get(`/api/pipeline/pipelines/${again.new_job_id.slice(9)}`)
        .expect(200)
    ).body.steps;
    expect(steps.map((x: { name: string }) => x.name)).toEqual(Array.from({ length: 130 }, (_, i) => `s${i}`));
  });

  test('settings a pipeline cannot run are refused naming the task, and nothing is created', async () => {
    const { settings } = await job(id);
    const tasks = settings.tasks as Task[];
    const before = (await api().get('/api/pipeline/pipelines').expect(200)).body.pipelines.length;
    const lost = tasks.map((t, i) => (i === 7 ? { ...t, depends_on: [{ task_key: 'nope' }] } : t));
    const cycle = tasks.map((t, i) => (i === 0 ? { ...t, depends_on: [{ task_key: 's129' }] } : t));
    const results = await restore([
      { settings: { ...settings, tasks: lost } },
      { settings: { ...settings, tasks: cycle } },
    ]);
    expect(results.map((r: { status: string }) => r.status)).toEqual(['failed', 'failed']);
    expect(results[0].error).toContain('task s7 depends on nope');
    expect(results[1].error).toContain('cycle');
    expect((await api().get('/api/pipeline/pipelines').expect(200)).body.pipelines.length).toBe(before);
  });
});

describe('clone schedules and persistent scheduled jobs', () => {
  const cloneOptions = { source_catalog: 'prod', destination_catalog: `prod_jc_${tag}`, clone_type: 'SHALLOW' };

  test('a clone schedule: listed as one clone task; cloned paused in Temporal; backup → delete → restore', async () => {
    const name = `nightly_${tag}`;
    const created = await api()
      .post('/api/schedule')
      .send({ name, schedule: { cron: '0 3 * * *', drift_check: true }, clone_options: cloneOptions })
      .expect(201);
    const id = `schedule:${created.body.schedule_id}`;
    const { settings } = await job(id);
    expect(settings).toMatchObject({
      name,
      schedule: { quartz_cron_expression: '0 0 3 * * ?', timezone_id: 'UTC', pause_status: 'UNPAUSED' },
      tasks: [{ task_key: 'clone', lakeward_clone: { kind: 'schedule', drift_check: true, max_runs: 0 } }],
    });

    const res = await api().post('/api/job-clone/clone').send({ job_id: id }).expect(201);
    expect(res.body.new_job_id).toBe(`schedule:clone-schedule-${name}_clone`);
    const view = (await api().get(`/api/schedule/clone-schedule-${name}_clone`).expect(200)).body;
    expect(view).toMatchObject({ status: 'paused', paused: true, drift_check: true });
    expect(view.clone_options).toMatchObject(cloneOptions);
    expect(await temporalPaused(`clone-schedule-${name}_clone`)).toBe(true);
    expect((await diff(id, res.body.new_job_id)).diffs).toEqual([
      { path: '/name', kind: 'changed', a: name, b: `${name}_clone` },
      { path: '/schedule/pause_status', kind: 'changed', a: 'UNPAUSED', b: 'PAUSED' },
    ]);

    const b = await backup([id]);
    // The name is taken while the schedule exists: reported for that item, nothing else changes.
    const [taken] = await restore(b.definitions);
    expect(taken).toMatchObject({ status: 'failed', new_job_id: null });
    expect(taken.error).toContain(`a schedule named ${name} exists`);
    await api().delete(`/api/schedule/${created.body.schedule_id}`).expect(200);
    const [restored] = await restore(b.definitions);
    expect(restored).toMatchObject({ status: 'ok', new_job_id: id });
    expect((await backup([id])).definitions[0].settings).toEqual(pausedSettings(b.definitions[0].settings));
    expect(await temporalPaused(created.body.schedule_id)).toBe(true);
  });

  test('a persistent job (Quartz) and an interval schedule (trigger.periodic) clone paused', async () => {
    const made = await api()
      .post('/api/generate/create-job')
      .send({ ...cloneOptions, job_name: `weekly_${tag}`, schedule: '0 15 4 ? * MON', timezone: 'UTC' })
      .expect(200);
    const jobId = `schedule:${made.body.job_id}`;
    expect((await job(jobId)).settings.schedule).toEqual({
      quartz_cron_expression: '0 15 4 ? * MON',
      timezone_id: 'UTC',
      pause_status: 'UNPAUSED',
    });
    const c = await api().post('/api/job-clone/clone').send({ job_id: jobId }).expect(201);
    expect(await temporalPaused(c.body.new_job_id.slice('schedule:'.length))).toBe(true);
    expect((await diff(jobId, c.body.new_job_id)).diffs.map((d: { path: string }) => d.path)).toEqual([
      '/name',
      '/schedule/pause_status',
    ]);

    const every = await api()
      .post('/api/schedule')
      .send({ name: `every_${tag}`, schedule: { interval: '6h' }, clone_options: cloneOptions })
      .expect(201);
    const everyId = `schedule:${every.body.schedule_id}`;
    expect((await job(everyId)).settings.trigger).toEqual({
      pause_status: 'UNPAUSED',
      periodic: { interval: 6, unit: 'HOURS' },
    });
    const e = await api()
      .post('/api/job-clone/clone')
      .send({ job_id: everyId, new_name: `every2_${tag}` })
      .expect(201);
    expect((await job(e.body.new_job_id)).settings).toEqual(
      pausedSettings({ ...(await job(everyId)).settings, name: `every2_${tag}` }, 'trigger'),
    );
    expect(await temporalPaused(e.body.new_job_id.slice('schedule:'.length))).toBe(true);
  });
});
