import { insertChecks } from '../../store/data-quality/checks';
import { recentNotifications } from '../../store/notifications/repo';
import { eventually } from '../helpers/harness';
import { startSmtpSink, type SmtpSink } from './smtp-sink';
import { automationStack, historyOf, startReceiver, type AutomationStack, type Receiver } from './stack';

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

test('start_clone queues a clone job through the kernel (output job_id), whose success fires a job_succeeded playbook', async () => {
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
