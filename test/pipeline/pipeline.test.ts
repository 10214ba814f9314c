import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../api/server';
import { eventually } from '../helpers/harness';
import { ScheduleNotFoundError } from '@temporalio/client';
import { Webhook } from 'standardwebhooks';
import { automationStack, newSecret, startReceiver, type AutomationStack } from '../automation/stack';
import { runCli } from '../helpers/cli';

let s: AutomationStack;
beforeAll(async () => {
  s = await automationStack('pipeline');
}, 120_000);
afterAll(async () => s?.stop());

type StepState = { name: string; status: string; attempts: number; child_job_id: string | null; error: string | null };

async function create(steps: Record<string, unknown>[], name = 'p') {
  const res = await s.api().post('/api/pipeline/pipelines').send({ name, steps }).expect(201);
  return res.body.pipeline_id as string;
}

async function run(pipelineId: string) {
  const res = await s.api().post(`/api/pipeline/pipelines/${pipelineId}/run`).expect(202);
  expect(res.body.run_id).toBe(res.body.job_id);
  return res.body.run_id as string;
}

async function runWhere(runId: string, what: string, ok: (r: { status: string; steps: StepState[] }) => boolean) {
  return eventually(
    async () => {
      const r = (await s.api().get(`/api/pipeline/runs/${runId}`).expect(200)).body;
      return ok(r) ? r : null;
    },
    { what: `run ${runId}: ${what}`, timeoutMs: 90_000 },
  );
}
const ended = (runId: string) =>
  runWhere(runId, 'ended', (r) => ['completed', 'failed', 'cancelled'].includes(r.status));

test('clone → validate completes in order: the clone is a child job of the kernel, validate answers with its counts', async () => {
  const id = await create([
    {
      type: 'clone',
      name: 'clone',
      config: { source_catalog: 'prod', destination_catalog: 'prod_pl', clone_type: 'DEEP' },
    },
    { type: 'validate', name: 'check', config: { source_catalog: 'prod', destination_catalog: 'prod_pl' } },
  ]);
  const runId = await run(id);
  const r = await ended(runId);
  expect(r.status).toBe('completed');
  expect(r.steps.map((x: StepState) => [x.name, x.status, x.attempts])).toEqual([
    ['clone', 'succeeded', 1],
    ['check', 'succeeded', 1],
  ]);
  const child = r.steps[0].child_job_id!;
  expect(child).toMatch(/^clone-/);
  expect((await s.api().get(`/api/jobs/${child}`).expect(200)).body.status).toBe('completed');
  expect(Date.parse(r.steps[0].completed_at)).toBeLessThanOrEqual(Date.parse(r.steps[1].started_at));
  expect(r.steps[1].output).toMatchObject({ passed: true, mismatched: 0 });
  expect(r.steps[1].output.total_tables).toBeGreaterThan(0);
  const list = (await s.api().get('/api/pipeline/runs').query({ pipeline_id: id }).expect(200)).body.runs;
  expect(list.map((x: { run_id: string }) => x.run_id)).toEqual([runId]);
  expect((await s.api().get(`/api/jobs/${runId}`).expect(200)).body).toMatchObject({ job_type: 'pipeline' });
  // A finished run cannot be cancelled.
  await s.api().post(`/api/pipeline/runs/${runId}/cancel`).expect(409);
}, 120_000);

test('{retry: 2} makes 3 attempts; the failed step stops the run and the next is skipped; continue goes on', async () => {
  const id = await create([
    { type: 'custom_sql', name: 'peek', config: { sql: 'SELECT count(*) AS n FROM prod.sales.orders' } },
    { type: 'custom_sql', name: 'soft', config: { sql: 'DELETE FROM prod.sales.orders' }, on_failure: 'continue' },
    { type: 'custom_sql', name: 'hard', config: { sql: 'DROP TABLE prod.sales.orders' }, on_failure: { retry: 2 } },
    { type: 'notify', name: 'after', config: { message: 'never' } },
  ]);
  const r = await ended(await run(id));
  expect(r.status).toBe('failed');
  expect(r.steps.map((x: StepState) => [x.name, x.status, x.attempts])).toEqual([
    ['peek', 'succeeded', 1],
    ['soft', 'failed', 1],
    ['hard', 'failed', 3],
    ['after', 'skipped', 0],
  ]);
  expect(r.steps[0].output.rows[0].n).toBeGreaterThan(0);
  expect(r.steps[2].error).toContain('custom_sql is read-only');
  expect(r.error).toContain('step hard failed');
  // Nothing was written: the table is still there with its rows.
  expect((await s.h.open(s.root).query('SELECT count(*) AS n FROM prod.sales.orders')).rows[0].n).toEqual(
    r.steps[0].output.rows[0].n,
  );
}, 120_000);

test('on_failure rollback undoes the clone that succeeded before the failed step: the new catalog is gone', async () => {
  const id = await create([
    {
      type: 'clone',
      name: 'clone',
      config: { source_catalog: 'prod', destination_catalog: 'prod_rb', clone_type: 'SHALLOW', enable_rollback: true },
    },
    { type: 'custom_sql', name: 'hard', config: { sql: 'DROP TABLE prod_rb.sales.orders' }, on_failure: 'rollback' },
    { type: 'notify', name: 'after', config: { message: 'never' } },
  ]);
  const r = await ended(await run(id));
  expect(r.status).toBe('failed');
  expect(r.steps.map((x: StepState) => [x.name, x.status])).toEqual([
    ['clone', 'rolled_back'],
    ['hard', 'failed'],
    ['after', 'skipped'],
  ]);
  expect(r.error).toContain('rolled back: clone');
  expect(r.steps[0].output.rollback[0]).toMatchObject({ status: 'rolled_back' });
  const catalogs = (await s.h.open(s.root).listCatalogs()).map((c: { name: string }) => c.name);
  expect(catalogs).not.toContain('prod_rb');
  expect(catalogs).toContain('prod');
}, 150_000);

test('an approval waits; approve lets the run go on, reject fails it; deciding a step not waiting is a 409', async () => {
  const id = await create([
    { type: 'approval', name: 'ok', config: {} },
    { type: 'notify', name: 'tell', config: { message: 'approved' } },
  ]);
  const a = await run(id);
  await runWhere(a, 'waiting for approval', (r) => r.steps[0].status === 'waiting_approval');
  await s.api().post(`/api/pipeline/runs/${a}/steps/tell/approve`).expect(409);
  const d = await s.api().post(`/api/pipeline/runs/${a}/steps/ok/approve`).expect(200);
  expect(d.body).toMatchObject({ decision: 'approved' });
  expect((await ended(a)).status).toBe('completed');

  const b = await run(id);
  await runWhere(b, 'waiting for approval', (r) => r.steps[0].status === 'waiting_approval');
  await s.api().post(`/api/pipeline/runs/${b}/steps/ok/reject`).expect(200);
  const rb = await ended(b);
  expect(rb.status).toBe('failed');
  expect(rb.steps[0]).toMatchObject({ status: 'failed' });
  expect(rb.steps[0].error).toContain('rejected by');
  expect(rb.steps[1].status).toBe('skipped');
}, 120_000);

test('cancel stops the child clone in flight and skips the remaining steps', async () => {
  const id = await create([
    {
      type: 'clone',
      name: 'slow',
      config: { source_catalog: 'prod', destination_catalog: 'prod_pl_slow', clone_type: 'DEEP', max_rps: 0.2 },
    },
    { type: 'notify', name: 'after', config: { message: 'never' } },
  ]);
  const runId = await run(id);
  const r = await runWhere(runId, 'its clone running', (x) => !!x.steps[0].child_job_id);
  const child = r.steps[0].child_job_id as string;
  await eventually(
    async () => ((await s.api().get(`/api/jobs/${child}`).expect(200)).body.status === 'running' ? true : null),
    { what: `clone ${child} to run` },
  );
  await s.api().post(`/api/pipeline/runs/${runId}/cancel`).expect(200);
  const done = await ended(runId);
  expect(done.status).toBe('cancelled');
  expect(done.steps.map((x: StepState) => x.status)).toEqual(['cancelled', 'skipped']);
  const job = await eventually(
    async () => {
      const j = (await s.api().get(`/api/jobs/${child}`).expect(200)).body;
      return j.completed_at ? j : null;
    },
    { what: `clone ${child} to end`, timeoutMs: 60_000 },
  );
  expect(job.status).toBe('cancelled');
}, 150_000);

test('configs are checked with their endpoint schemas; templates create deep copies and stay unchanged', async () => {
  const bad = await s
    .api()
    .post('/api/pipeline/pipelines')
    .send({
      name: 'bad',
      steps: [
        { type: 'clone', name: 'c', config: { source_catalog: 'prod' } },
        { type: 'wait', name: 'c', config: { seconds: 0 } },
        { type: 'teleport', name: 'v', config: {} },
      ],
    })
    .expect(422);
  const paths = bad.body.error.details.map((d: { path: string }) => d.path);
  expect(paths).toEqual(
    expect.arrayContaining([
      'steps.0.config.destination_catalog',
      'steps.1.name',
      'steps.1.config.seconds',
      'steps.2.type',
    ]),
  );

  const before = (await s.api().get('/api/pipeline/templates').expect(200)).body.templates;
  expect(before.map((t: { template_name: string }) => t.template_name)).toEqual([
    'production-to-dev',
    'clone-and-validate',
    'refresh-dev',
    'compliance-clone',
  ]);
  const created = await s
    .api()
    .post('/api/pipeline/templates/clone-and-validate/create')
    .send({ name: 'mine', overrides: { clone: { destination_catalog: 'prod_tpl' } } })
    .expect(201);
  expect(created.body.name).toBe('mine');
  expect(created.body.steps[0].config.destination_catalog).toBe('prod_tpl');
  expect((await s.api().get('/api/pipeline/templates').expect(200)).body.templates).toEqual(before);
  await s
    .api()
    .post('/api/pipeline/templates/clone-and-validate/create')
    .send({ overrides: { nope: {} } })
    .expect(422);
  await s.api().post('/api/pipeline/templates/unknown/create').send({}).expect(404);
});

test('a run_pipeline playbook action queues a pipeline run through the kernel', async () => {
  const id = await create([{ type: 'notify', name: 'hello', config: { message: 'from a playbook' } }], 'pb');
  const pb = await s
    .api()
    .post('/api/playbooks')
    .send({ name: 'rp', trigger_type: 'job_failed', actions: [{ type: 'run_pipeline', params: { pipeline_id: id } }] })
    .expect(201);
  const ex = (await s.api().post(`/api/playbooks/${pb.body.playbook_id}/execute`).send({}).expect(200)).body;
  expect(ex.actions[0]).toMatchObject({ status: 'succeeded', output: { job_type: 'pipeline' } });
  expect((await ended(ex.actions[0].output.job_id)).status).toBe('completed');
}, 90_000);

test('a convert step runs the convert endpoint (a dry run plans, a missing table fails the step)', async () => {
  const id = await create([
    {
      type: 'convert',
      name: 'plan',
      config: {
        targets: [{ fqn: 'prod.sales.orders', source_format: 'DELTA', target_format: 'PARQUET' }],
        dry_run: true,
      },
    },
    {
      type: 'convert',
      name: 'missing',
      config: {
        targets: [{ fqn: 'prod.sales.nope', source_format: 'DELTA', target_format: 'PARQUET' }],
        confirm_destructive: true,
      },
    },
  ]);
  const r = await ended(await run(id));
  expect(r.status).toBe('failed');
  expect(r.steps[0]).toMatchObject({ status: 'succeeded', output: { dry_run: true, failed: 0, total: 1 } });
  expect(r.steps[1]).toMatchObject({ status: 'failed' });
  expect(r.steps[1].error).toContain('1 conversion(s) failed');
  const bad = await s
    .api()
    .post('/api/pipeline/pipelines')
    .send({
      name: 'c',
      steps: [{ type: 'convert', name: 'c', config: { targets: [{ fqn: 'a.b.c', source_format: 'DELTA' }] } }],
    })
    .expect(422);
  expect(bad.body.error.details[0].path).toBe('steps.0.config.confirm_destructive');
}, 90_000);

test('a schedule becomes the Temporal Schedule pipeline-schedule-<id>; a fired run is a pipeline job; delete removes it', async () => {
  const res = await s
    .api()
    .post('/api/pipeline/pipelines')
    .send({
      name: 'nightly',
      schedule: { cron: '0 3 * * *', timezone: 'Europe/Amsterdam' },
      steps: [{ type: 'notify', name: 'tick', config: { message: 'scheduled' } }],
    })
    .expect(201);
  const id = res.body.pipeline_id as string;
  expect(res.body.schedule).toEqual({ cron: '0 3 * * *', timezone: 'Europe/Amsterdam', paused: false });
  const handle = s.h.env.client.schedule.getHandle(`pipeline-schedule-${id}`);
  const described = await handle.describe();
  expect(described.spec.timezone).toBe('Europe/Amsterdam');
  await handle.trigger();
  const [runRow] = await eventually(
    async () => {
      const runs = (await s.api().get('/api/pipeline/runs').query({ pipeline_id: id }).expect(200)).body.runs;
      return runs.length ? runs : null;
    },
    { what: `a scheduled run of pipeline ${id}` },
  );
  expect((await ended(runRow.run_id)).status).toBe('completed');
  await s.api().delete(`/api/pipeline/pipelines/${id}`).expect(200);
  await expect(handle.describe()).rejects.toThrow(ScheduleNotFoundError);
  await s
    .api()
    .post('/api/pipeline/pipelines')
    .send({
      name: 'bad',
      schedule: { cron: 'every day ok' },
      steps: [{ type: 'wait', name: 'w', config: { seconds: 1 } }],
    })
    .expect((r) => expect([400, 422]).toContain(r.status));
}, 90_000);

test('a webhook step posts a verified Standard Webhooks request; its secret is never shown', async () => {
  const rx = await startReceiver();
  try {
    const secret = newSecret();
    const id = await create([{ type: 'webhook', name: 'hook', config: { url: `${rx.url}/pl`, secret } }]);
    const shown = (await s.api().get(`/api/pipeline/pipelines/${id}`).expect(200)).body;
    expect(shown.steps[0].config).toEqual({ url: `${rx.url}/pl`, secret_set: true });
    expect(JSON.stringify(shown)).not.toContain(secret);
    const runId = await run(id);
    const r = await ended(runId);
    expect(r.status).toBe('completed');
    expect(r.steps[0].output).toMatchObject({ status_code: 200, webhook_id: `${runId}-hook` });
    const [req] = rx.requests.filter((x) => x.path === '/pl');
    const payload = new Webhook(secret).verify(req.body, req.headers as Record<string, string>) as { data: unknown };
    expect(payload.data).toEqual({ run_id: runId, step: 'hook' });
    await s
      .api()
      .post('/api/pipeline/pipelines')
      .send({ name: 'nosecret', steps: [{ type: 'webhook', name: 'h', config: { url: `${rx.url}/x` } }] })
      .expect(422);
  } finally {
    await rx.close();
  }
}, 90_000);

describe('lakeward pipeline (the CLI against a running API)', () => {
  let server: RunningServer;
  let dir: string;
  beforeAll(async () => {
    server = await startServer(s.appDeps(), { host: '127.0.0.1', port: 0 });
    dir = mkdtempSync(path.join(tmpdir(), 'lw-pl-cli-'));
  });
  afterAll(async () => {
    await server?.close(500);
    rmSync(dir, { recursive: true, force: true });
  });
  const cli = (...args: string[]) => runCli(['pipeline', ...args, '--url', server.url], { cwd: dir });

  test('create from YAML, run --wait, status and runs; an approval is approved from the CLI; a bad step exits 1', async () => {
    writeFileSync(
      path.join(dir, 'p.yaml'),
      [
        'name: cli pipeline',
        'steps:',
        '  - { type: custom_sql, name: count, config: { sql: "SELECT 1 AS one" } }',
        '  - { type: notify, name: tell, config: { message: done }, on_failure: continue }',
      ].join('\n'),
    );
    const created = await cli('create', 'p.yaml', '--json');
    expect(created.code).toBe(0);
    const id = JSON.parse(created.stdout).pipeline_id as string;
    expect((await cli('list')).stdout).toContain(id);
    const ran = await cli('run', id, '--wait');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('completed');
    expect(ran.stdout).toContain('count (custom_sql): succeeded, 1 attempt(s)');
    const runId = ran.stdout.split(/\s+/)[0];
    expect((await cli('runs', '--pipeline', id)).stdout).toContain(runId);
    expect((await cli('status', runId)).stdout).toContain('tell (notify): succeeded');

    writeFileSync(path.join(dir, 'a.yaml'), 'name: gated\nsteps:\n  - { type: approval, name: ok }\n');
    const gated = JSON.parse((await cli('create', 'a.yaml', '--json')).stdout).pipeline_id as string;
    const queued = JSON.parse((await cli('run', gated, '--json')).stdout).run_id as string;
    await runWhere(queued, 'waiting for approval', (r) => r.steps[0].status === 'waiting_approval');
    expect((await cli('approve', queued, 'ok')).stdout).toContain('ok: approved');
    expect((await ended(queued)).status).toBe('completed');

    writeFileSync(
      path.join(dir, 'bad.yaml'),
      'name: bad\nsteps:\n  - { type: wait, name: w, config: { seconds: 0 } }\n',
    );
    const bad = await cli('create', 'bad.yaml');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('steps.0.config.seconds');
  }, 120_000);
});
