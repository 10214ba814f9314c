import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { scheduledCloneSubmitter } from '../../api/schedules/submitter';
import { createDatabricksWorkspace } from '../../platform/databricks';
import { RecordingSqlSession } from '../databricks/recording-session';
import { StubServer } from '../databricks/stub-server';
import { testAppDeps } from '../api/deps';
import { eventually } from '../helpers/harness';
import { realStack, type RealStack } from '../jobs/real-stack';

/**
 * Persistent scheduled jobs (POST /api/generate/create-job, run-job, clone-jobs): on the embedded stack a
 * Temporal Schedule whose Quartz cron (seconds, `?`, a time zone) the server reads as the table of instants
 * below expects; with target databricks-jobs a Databricks Job, checked as the exact Jobs API requests a stub
 * workspace receives.
 */
let stack: RealStack;
let deps: AppDeps;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  stack = await realStack('create-job');
  deps = stack.appDeps();
  app = createApp(deps);
}, 120_000);
afterAll(async () => {
  await stack?.h.env.client.schedule
    .getHandle('clone-job-weekday')
    .delete()
    .catch(() => undefined);
  await stack?.teardown();
});

test('create-job makes a Temporal Schedule from Quartz cron, runs it now, lists it, runs it again and updates it', async () => {
  const worker = {
    deps: {
      workspaces: deps.workspaces,
      submitClone: scheduledCloneSubmitter({ ...deps, client: stack.h.env.client }),
    },
  };
  await stack.h.withWorker(async () => {
    const body = {
      source_catalog: 'prod',
      destination_catalog: 'prod_job',
      clone_type: 'SHALLOW',
      job_name: 'weekday',
      schedule: '0 30 2 ? * MON-FRI',
      timezone: 'Europe/Paris',
      notification_emails: ['ops@example.com'],
      tags: { team: 'data' },
      run_now: true,
    };
    const created = (await request(app).post('/api/generate/create-job').send(body).expect(200)).body;
    expect(created).toMatchObject({
      job_id: 'clone-job-weekday',
      created: true,
      target: 'temporal',
      quartz_cron_expression: '0 30 2 ? * MON-FRI',
      timezone_id: 'Europe/Paris',
      run: { triggered: true },
    });
    // 02:30 in Paris on weekdays: 01:30 UTC in winter (CET), never on a Saturday or Sunday.
    for (const t of created.next_run_times as string[]) {
      const d = new Date(t);
      expect(t).toMatch(/T01:30:00(\.000)?Z$/);
      expect([0, 6]).not.toContain(d.getUTCDay());
    }
    const runs = await eventually(
      async () => {
        const r = (await request(app).get('/api/schedule/clone-job-weekday/runs').expect(200)).body as any[];
        return r.length === 1 && r[0].outcome === 'completed' ? r : null;
      },
      { timeoutMs: 90_000, what: 'the run_now run of clone-job-weekday to complete' },
    );
    const job = (await request(app).get(`/api/jobs/${runs[0].job_id}`).expect(200)).body;
    expect(job).toMatchObject({ job_type: 'clone', status: 'completed', destination_catalog: 'prod_job' });

    const listed = (await request(app).get('/api/generate/clone-jobs').expect(200)).body as any[];
    expect(listed.map((j) => j.schedule_id)).toEqual(['clone-job-weekday']);
    expect(listed[0]).toMatchObject({ kind: 'job', clones: 1, spec: { notification_emails: ['ops@example.com'] } });
    // Jobs are not clone schedules: GET /api/schedule lists only the latter.
    expect((await request(app).get('/api/schedule').expect(200)).body).toEqual([]);

    const rerun = (await request(app).post('/api/generate/run-job/clone-job-weekday').expect(200)).body;
    expect(rerun).toMatchObject({ job_id: 'clone-job-weekday', triggered: true });
    await eventually(
      async () => {
        const r = (await request(app).get('/api/schedule/clone-job-weekday/runs').expect(200)).body as any[];
        return r.length === 2 && r.every((x) => x.outcome === 'completed');
      },
      { timeoutMs: 90_000, what: 'the run-job run to complete' },
    );

    const updated = (
      await request(app)
        .post('/api/generate/create-job')
        .send({
          ...body,
          run_now: false,
          update_job_id: 'clone-job-weekday',
          schedule: '15 0 6 L * ?',
          timezone: 'UTC',
        })
        .expect(200)
    ).body;
    expect(updated).toMatchObject({ job_id: 'clone-job-weekday', created: false });
    // The last day of each month at 06:00:15 UTC.
    for (const t of updated.next_run_times as string[]) {
      const d = new Date(t);
      expect(t).toMatch(/T06:00:15(\.000)?Z$/);
      expect(new Date(d.getTime() + 86_400_000).getUTCDate()).toBe(1);
    }
  }, worker);
}, 240_000);

test('a failed scheduled clone is retried max_retries times; a refused one fails the run; both notify', async () => {
  const ws = stack.h.open(stack.root);
  const t = { catalog: 'doomed', schema: 's', name: 't' };
  await ws.createCatalog({ name: 'doomed', ifNotExists: true });
  await ws.createSchema({ catalog: 'doomed', name: 's', ifNotExists: true });
  await ws.createTable({ ref: t, columns: [{ name: 'id', type: 'bigint' }] });
  await ws.insertRows(t, [{ id: 1 }, { id: 2 }]);
  // The table's data files go away (its log stays): every deep clone of it fails.
  const location = (await ws.tableDetail(t)).location!.replace(/^file:\/\//, '');
  for (const f of readdirSync(location)) if (f.endsWith('.parquet')) rmSync(path.join(location, f));
  const worker = {
    deps: {
      workspaces: deps.workspaces,
      submitClone: scheduledCloneSubmitter({ ...deps, client: stack.h.env.client }),
    },
  };
  const runsOfDoomed = (n: number) =>
    eventually(
      async () => {
        const r = (await request(app).get('/api/schedule/clone-job-doomed/runs').expect(200)).body as any[];
        return r.length === n && r.every((x) => x.outcome !== 'running') ? r : null;
      },
      { timeoutMs: 90_000, what: `${n} ended runs of clone-job-doomed` },
    );
  await stack.h.withWorker(async () => {
    await request(app)
      .post('/api/generate/create-job')
      .send({
        source_catalog: 'doomed',
        destination_catalog: 'doomed_copy',
        clone_type: 'DEEP',
        job_name: 'doomed',
        max_retries: 1,
        schedule: '0 0 4 1 * ?',
      })
      .expect(200);
    await request(app).post('/api/generate/run-job/clone-job-doomed').expect(200);
    const [run] = await runsOfDoomed(1);
    expect(run.outcome).toBe('failed');
    expect(run.reason).toMatch(/; retry 1 of 1 after .+: clone job clone-/);
    const failedJobs = (await request(app).get('/api/clone/jobs').expect(200)).body.filter(
      (j: any) => j.destination_catalog === 'doomed_copy',
    );
    expect(failedJobs.map((j: any) => j.status)).toEqual(['failed', 'failed']);
    expect(run.job_id).toBe(failedJobs[0].job_id); // newest first: the retry's job
    const notes = (await request(app).get('/api/notifications').expect(200)).body.items as any[];
    expect(notes.find((n) => n.type === 'schedule_failure' && n.job_id === run.job_id)?.message).toMatch(
      /^Scheduled clone doomed: clone job \S+ failed: /,
    );

    // The source catalog goes away: the kernel refuses the clone (404), and the run fails saying so.
    await ws.dropCatalog('doomed', { cascade: true });
    await request(app).post('/api/generate/run-job/clone-job-doomed').expect(200);
    const [refused] = await runsOfDoomed(2);
    expect(refused).toMatchObject({ outcome: 'failed', job_id: null });
    expect(refused.reason).toContain('the clone was refused: source_catalog: catalog doomed does not exist');
    const jobs = (await request(app).get('/api/generate/clone-jobs').expect(200)).body as any[];
    expect(jobs.find((j) => j.schedule_id === 'clone-job-doomed')).toMatchObject({ clones: 0, failed: 2 });
  }, worker);
  await stack.h.env.client.schedule.getHandle('clone-job-doomed').delete();
}, 240_000);

test('create-job refuses bad input naming the field', async () => {
  const base = { source_catalog: 'prod', destination_catalog: 'prod_x' };
  const quartz = await request(app)
    .post('/api/generate/create-job')
    .send({ ...base, schedule: '0 0 12 * * MON' })
    .expect(400);
  expect(quartz.body.error.details[0].path).toBe('body.schedule');
  const clone = await request(app)
    .post('/api/generate/create-job')
    .send({ ...base, schedule: '0 0 12 * * ?', clone_type: 'WIDE' })
    .expect(400);
  expect(clone.body.error.details[0].path).toBe('body.clone_type');
  await request(app)
    .post('/api/generate/create-job')
    .send({ ...base, schedule: '0 0 12 * * ?', update_job_id: 'clone-job-nope' })
    .expect(404);
  const local = await request(app)
    .post('/api/generate/create-job')
    .send({ ...base, schedule: '0 0 12 * * ?', target: 'databricks-jobs', job_name: 'on-local' })
    .expect(422);
  expect(local.body.error.details[0].path).toBe('body.target');
  await request(app).post('/api/generate/run-job/clone-job-nope').expect(404);
});

describe('target databricks-jobs: the Jobs API requests, as text', () => {
  let stub: StubServer;
  let dbxApp: ReturnType<typeof createApp>;
  beforeAll(async () => {
    stub = await new StubServer().start();
    stub.on('GET /api/2.1/unity-catalog/catalogs/main', { json: { name: 'main' } });
    stub.on('POST /api/2.2/jobs/create', { json: { job_id: 4242 } });
    stub.on('POST /api/2.2/jobs/reset', { json: {} });
    stub.on('POST /api/2.2/jobs/run-now', { json: { run_id: 777, number_in_job: 1 } });
    const ws = await createDatabricksWorkspace({
      host: stub.url,
      warehouseId: 'wh1',
      auth: { type: 'pat', token: 'dapi0123456789abcdef0123456789abcdef' },
      sqlSession: new RecordingSqlSession(),
      retry: { baseDelayMs: 20, maxDelayMs: 50 },
    });
    dbxApp = createApp(
      testAppDeps({
        store: stack.h.store,
        temporal: null,
        env: { DATABRICKS_WAREHOUSE_ID: 'wh1' },
        open: async () => ws,
      }),
    );
  });
  afterAll(() => stub.stop());

  test('create → jobs/create, update → jobs/reset, run-job → jobs/run-now', async () => {
    const body = {
      source_catalog: 'main',
      destination_catalog: 'main_dr',
      clone_type: 'DEEP',
      job_name: 'dr-nightly',
      schedule: '0 0 3 ? * SUN',
      timezone: 'America/New_York',
      notification_emails: ['dr@example.com'],
      max_retries: 2,
      tags: { env: 'dr' },
      target: 'databricks-jobs',
      run_now: true,
    };
    const created = (await request(dbxApp).post('/api/generate/create-job').send(body).expect(200)).body;
    expect(created).toMatchObject({
      job_id: 'clone-job-dr-nightly',
      target: 'databricks-jobs',
      external_job_id: '4242',
      created: true,
      run: { triggered: true, run_id: '777' },
    });
    const sent = (p: string) => stub.seen.filter((r) => `${r.method} ${r.path}` === p).map((r) => r.body.toString());
    const settings = {
      name: 'lakeward-clone-dr-nightly',
      tags: { env: 'dr', lakeward: 'scheduled-clone' },
      schedule: { quartz_cron_expression: '0 0 3 ? * SUN', timezone_id: 'America/New_York', pause_status: 'UNPAUSED' },
      email_notifications: {
        on_success: ['dr@example.com'],
        on_failure: ['dr@example.com'],
        no_alert_for_skipped_runs: false,
      },
      timeout_seconds: 7200,
      max_concurrent_runs: 1,
      tasks: [
        {
          task_key: 'clone_catalog',
          notebook_task: {
            notebook_path: '/Shared/lakeward/clone_catalog',
            source: 'WORKSPACE',
            base_parameters: {
              source_catalog: 'main',
              destination_catalog: 'main_dr',
              clone_type: 'DEEP',
              clone_request: '{"source_catalog":"main","destination_catalog":"main_dr","clone_type":"DEEP"}',
            },
            warehouse_id: 'wh1',
          },
          max_retries: 2,
          timeout_seconds: 7200,
        },
      ],
    };
    expect(sent('POST /api/2.2/jobs/create')).toEqual([JSON.stringify(settings)]);
    expect(sent('POST /api/2.2/jobs/run-now')).toEqual(['{"job_id":4242}']);

    await request(dbxApp)
      .post('/api/generate/create-job')
      .send({ ...body, run_now: false, update_job_id: 'clone-job-dr-nightly', timeout_seconds: 3600 })
      .expect(200);
    const reset = {
      ...settings,
      timeout_seconds: 3600,
      tasks: [{ ...settings.tasks[0], timeout_seconds: 3600 }],
    };
    expect(sent('POST /api/2.2/jobs/reset')).toEqual([JSON.stringify({ job_id: 4242, new_settings: reset })]);

    const run = (await request(dbxApp).post('/api/generate/run-job/clone-job-dr-nightly').expect(200)).body;
    expect(run).toMatchObject({ triggered: true, run_id: '777' });
    expect(sent('POST /api/2.2/jobs/run-now')).toHaveLength(2);
    const listed = (await request(dbxApp).get('/api/generate/clone-jobs').expect(200)).body as any[];
    expect(listed.find((j) => j.schedule_id === 'clone-job-dr-nightly')).toMatchObject({
      target: 'databricks-jobs',
      external_job_id: '4242',
      next_run_times: [],
    });
  });
});
