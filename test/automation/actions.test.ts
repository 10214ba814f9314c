import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../api/server';
import { insertChecks } from '../../store/data-quality/checks';
import { getCase } from '../../store/mdm/cases';
import { recentNotifications } from '../../store/notifications/repo';
import { eventually } from '../helpers/harness';
import { startSmtpSink, type SmtpSink } from './smtp-sink';
import { automationStack, historyOf, newSecret, startReceiver, type AutomationStack, type Receiver } from './stack';
import { runCli } from '../helpers/cli';

let s: AutomationStack;
let rx: Receiver;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  s = await automationStack('automation-actions', (config) => {
    config.automation.smtp.host = '127.0.0.1';
    config.automation.smtp.port = smtp.port;
  });
  rx = await startReceiver();
}, 120_000);
afterAll(async () => {
  await rx?.close();
  await smtp?.close();
  await s?.stop();
});

/** Creates a playbook with these actions and executes it with `event`; returns the finished execution. */
async function execute(actions: Record<string, unknown>[], event: Record<string, unknown> = {}) {
  const created = await s
    .api()
    .post('/api/playbooks')
    .send({ name: 'actions', trigger_type: 'job_failed', actions })
    .expect(201);
  const res = await s.api().post(`/api/playbooks/${created.body.playbook_id}/execute`).send({ event }).expect(200);
  return res.body;
}

async function jobEnd(jobId: string) {
  return eventually(
    async () => {
      const job = (await s.api().get(`/api/jobs/${jobId}`).expect(200)).body;
      return job.completed_at ? job : null;
    },
    { what: `job ${jobId} to end`, timeoutMs: 60_000 },
  );
}

test('notify: in-app notification, Slack incoming webhook and e-mail through SMTP, each with the rendered message', async () => {
  const run = await execute(
    [
      { type: 'notify', params: { channel: 'in_app', message: 'job {{event.job_id}} failed' }, on_failure: 'continue' },
      {
        type: 'notify',
        params: { channel: 'slack', webhook_url: `${rx.url}/slack`, message: 'slack {{event.job_id}}' },
      },
      { type: 'notify', params: { channel: 'email', to: 'ops@example.com', subject: 'S {{event.job_id}}' } },
    ],
    { job_id: 'j-77', message: 'job j-77 failed badly' },
  );
  expect(run.status).toBe('succeeded');
  const notes = await recentNotifications(s.h.store.db, 20);
  expect(notes.find((n) => n.type === 'playbook')?.message).toBe('job j-77 failed');
  const slack = rx.requests.find((r) => r.path === '/slack');
  expect(JSON.parse(slack!.body)).toEqual({ text: 'slack j-77' });
  expect(smtp.messages).toHaveLength(1);
  expect(smtp.messages[0].to).toEqual(['<ops@example.com>']);
  expect(smtp.messages[0].data).toContain('Subject: S j-77');
  expect(smtp.messages[0].data).toContain('job j-77 failed badly');
  expect(run.actions[2].output).toMatchObject({ channel: 'email', to: 'ops@example.com' });
}, 60_000);

test('tag_table sets the tags on the table named by the event', async () => {
  const run = await execute(
    [{ type: 'tag_table', params: { table_fqn: '{{event.table_fqn}}', tags: { incident: '{{event.job_id}}' } } }],
    { table_fqn: 'prod.sales.orders', job_id: 'j-9' },
  );
  expect(run.status).toBe('succeeded');
  const ws = s.h.open(s.root);
  expect(await ws.getTags({ type: 'TABLE', catalog: 'prod', schema: 'sales', name: 'orders' })).toMatchObject({
    incident: 'j-9',
  });
});

test('start_clone queues a clone job through the kernel (output job_id), whose success fires a job_succeeded playbook; start_sync then queues an incremental sync', async () => {
  const onSuccess = await s
    .api()
    .post('/api/playbooks')
    .send({
      name: 'clone ok',
      trigger_type: 'job_succeeded',
      trigger_config: { job_types: ['clone'] },
      conditions: "event.destination_catalog == 'prod_pb_copy'",
      actions: [{ type: 'notify', params: { message: 'copied into {{event.destination_catalog}}' } }],
    })
    .expect(201);
  const run = await execute([
    {
      type: 'start_clone',
      params: { source_catalog: 'prod', destination_catalog: 'prod_pb_copy', clone_type: 'SHALLOW' },
    },
  ]);
  expect(run.status).toBe('succeeded');
  const jobId = run.actions[0].output.job_id as string;
  expect(run.actions[0].output.job_type).toBe('clone');
  expect((await jobEnd(jobId)).status).toBe('completed');
  const [fired] = await historyOf(s, onSuccess.body.playbook_id, 1);
  expect(fired).toMatchObject({ status: 'succeeded', trigger: 'job.succeeded', event: { job_id: jobId } });
  const sync = await execute([
    {
      type: 'start_sync',
      params: { source_catalog: 'prod', destination_catalog: 'prod_pb_copy', schema_name: 'sales' },
    },
  ]);
  expect(sync.actions[0]).toMatchObject({ status: 'succeeded', output: { job_type: 'incremental_sync' } });
  expect((await jobEnd(sync.actions[0].output.job_id)).status).toBe('completed');
  expect(await s.h.open(s.root).listCatalogs()).toEqual(
    expect.arrayContaining([expect.objectContaining({ name: 'prod_pb_copy' })]),
  );
}, 90_000);

test("run_dq queues a dq job over the table's enabled checks; bad params fail the action without retries", async () => {
  await insertChecks(
    s.h.store.db,
    [
      {
        checkId: 'pb-orders-id',
        name: 'id_present',
        tableFqn: 'prod.sales.orders',
        criticality: 'error',
        checkFunction: 'is_not_null',
        arguments: { column: 'id' },
        createdBy: 'test',
      },
    ],
    'test',
  );
  const run = await execute(
    [
      { type: 'run_dq', params: { table_fqn: '{{event.table_fqn}}' }, on_failure: 'continue' },
      { type: 'start_clone', params: { source_catalog: 'prod' } },
    ],
    { table_fqn: 'prod.sales.orders' },
  );
  expect(run.status).toBe('partial');
  expect(run.actions[0]).toMatchObject({ status: 'succeeded', output: { job_type: 'dq' } });
  expect((await jobEnd(run.actions[0].output.job_id)).status).toBe('completed');
  expect(run.actions[1]).toMatchObject({ status: 'failed', attempts: 1 });
  expect(run.actions[1].error).toContain('destination_catalog');
}, 90_000);

test("open_case opens a master-data stewardship case for the event's records (once per records)", async () => {
  const action = {
    type: 'open_case',
    params: {
      entity_type: 'customer',
      type: 'suspected_duplicate',
      records: [
        { system: 'crm', record_id: '{{event.job_id}}' },
        { system: 'erp', record_id: 'e-1' },
      ],
    },
  };
  const run = await execute([action], { job_id: 'c-42' });
  expect(run.status).toBe('succeeded');
  const [caseId] = run.actions[0].output.opened as string[];
  const row = await getCase(s.h.store.db, caseId);
  expect(row).toMatchObject({ entityType: 'customer', type: 'suspected_duplicate', status: 'open' });
  expect(row!.records).toEqual([
    { system: 'crm', record_id: 'c-42' },
    { system: 'erp', record_id: 'e-1' },
  ]);
  expect((await execute([action], { job_id: 'c-42' })).actions[0].output).toEqual({ opened: [], existing: 1 });
});

test('deny_private_networks refuses a loopback receiver without sending (default off: local receivers work)', async () => {
  const config = s.workerConfig;
  config.automation.webhooks.deny_private_networks = true;
  try {
    const before = rx.requests.length;
    const run = await execute([{ type: 'webhook', params: { url: `${rx.url}/private`, secret: newSecret() } }]);
    expect(run.status).toBe('failed');
    expect(run.actions[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(run.actions[0].error).toContain('private network');
    expect(rx.requests.length).toBe(before);
  } finally {
    config.automation.webhooks.deny_private_networks = false;
  }
});

test('pause_schedule and resume_schedule pause and resume a clone schedule', async () => {
  const created = await s
    .api()
    .post('/api/schedule')
    .send({
      name: 'pb-target',
      schedule: { interval: '1d' },
      clone_options: { source_catalog: 'prod', destination_catalog: 'prod_sched', clone_type: 'SHALLOW' },
    })
    .expect(201);
  const id = created.body.schedule_id as string;
  const paused = await execute([{ type: 'pause_schedule', params: { schedule_id: id } }]);
  expect(paused.status).toBe('succeeded');
  expect((await s.api().get(`/api/schedule/${id}`).expect(200)).body).toMatchObject({ status: 'paused', paused: true });
  const resumed = await execute([{ type: 'resume_schedule', params: { schedule_id: id } }]);
  expect(resumed.status).toBe('succeeded');
  expect((await s.api().get(`/api/schedule/${id}`).expect(200)).body).toMatchObject({
    status: 'active',
    paused: false,
  });
  await s.api().delete(`/api/schedule/${id}`).expect(200);
}, 60_000);

describe('lakeward playbook (the CLI against a running API)', () => {
  let server: RunningServer;
  let dir: string;
  beforeAll(async () => {
    server = await startServer(s.appDeps(), { host: '127.0.0.1', port: 0 });
    dir = mkdtempSync(path.join(tmpdir(), 'lw-pb-cli-'));
  });
  afterAll(async () => {
    await server?.close(500);
    rmSync(dir, { recursive: true, force: true });
  });
  const cli = (...args: string[]) => runCli(['playbook', ...args, '--url', server.url], { cwd: dir });

  test('create from YAML, list, execute (dry run and real), history; a bad condition exits 1 naming it', async () => {
    writeFileSync(
      path.join(dir, 'pb.yaml'),
      [
        'name: cli playbook',
        'trigger_type: job_failed',
        'trigger_config: { job_types: [clone] }',
        'conditions: "event.job_type == \'clone\'"',
        'actions:',
        '  - type: notify',
        "    params: { message: 'cli {{event.job_id}}' }",
      ].join('\n'),
    );
    const created = await cli('create', 'pb.yaml', '--json');
    expect(created.code).toBe(0);
    const id = JSON.parse(created.stdout).playbook_id as string;
    expect((await cli('list')).stdout).toContain(id);
    const dry = await cli('execute', id, '--dry-run', '--event', '{"job_id":"c-1"}');
    expect(dry).toMatchObject({ code: 0 });
    expect(dry.stdout).toContain('notify: dry_run, 0 attempt(s)');
    const real = await cli('execute', id, '--event', '{"job_id":"c-2"}');
    expect(real.code).toBe(0);
    expect(real.stdout).toContain('succeeded');
    const history = (await cli('history', id)).stdout.split('\n').filter((l) => l.startsWith('playbook-'));
    expect(history).toHaveLength(2);
    expect(history[0]).toContain('succeeded  trigger manual');
    expect(history[1]).toContain('(dry run)');

    writeFileSync(
      path.join(dir, 'bad.yaml'),
      'name: bad\ntrigger_type: job_failed\nconditions: "event.nope"\nactions: [{type: notify}]\n',
    );
    const bad = await cli('create', 'bad.yaml');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('unknown field event.nope');
  }, 90_000);
});
