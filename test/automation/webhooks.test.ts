import { Webhook } from 'standardwebhooks';
import { automationStack, historyOf, newSecret, startReceiver, type AutomationStack, type Receiver } from './stack';

let s: AutomationStack;
let rx: Receiver;
beforeAll(async () => {
  s = await automationStack('automation-webhooks');
  rx = await startReceiver();
}, 120_000);
afterAll(async () => {
  await rx?.close();
  await s?.stop();
});

const secret = newSecret();

async function createPlaybook(body: Record<string, unknown>) {
  const res = await s.api().post('/api/playbooks').send(body);
  expect(res.status).toBe(201);
  return res.body as { playbook_id: string; actions: { params: Record<string, unknown> }[] };
}

test('a clone failing inside its job fires a job_failed playbook: one signed webhook, its status in the history', async () => {
  const book = await createPlaybook({
    name: 'clone failed → hook',
    trigger_type: 'job_failed',
    trigger_config: { job_types: ['clone'] },
    conditions: "event.job_type == 'clone' && event.severity == 'error'",
    actions: [{ type: 'webhook', params: { url: `${rx.url}/clone-failed`, secret, headers: { 'x-team': 'data' } } }],
  });
  // The stored secret is write-only: neither the create answer nor a read shows it.
  expect(JSON.stringify(book)).not.toContain(secret);
  expect(book.actions[0].params.secret_set).toBe(true);

  const job = await s
    .api()
    .post('/api/clone')
    .send({
      source_catalog: 'prod',
      destination_catalog: 'copy_bad',
      where_clauses: { 'sales.orders': 'no_such_col > 1' },
    })
    .expect(200);
  const jobId = job.body.job_id as string;
  const [execution] = await historyOf(s, book.playbook_id, 1, 60_000);
  const end = (await s.api().get(`/api/jobs/${jobId}`).expect(200)).body;
  expect(end.status).toBe('failed');

  const hooks = rx.requests.filter((r) => r.path === '/clone-failed');
  expect(hooks).toHaveLength(1);
  const { headers, body } = hooks[0];
  const verified = new Webhook(secret).verify(body, {
    'webhook-id': headers['webhook-id'] as string,
    'webhook-timestamp': headers['webhook-timestamp'] as string,
    'webhook-signature': headers['webhook-signature'] as string,
  }) as { type: string; data: Record<string, unknown> };
  expect(verified.type).toBe('job.failed');
  expect(verified.data.job_id).toBe(jobId);
  expect(headers['x-team']).toBe('data');

  expect(execution.status).toBe('succeeded');
  expect(execution.trigger).toBe('job.failed');
  expect(execution.event.job_id).toBe(jobId);
  expect(execution.actions[0]).toMatchObject({ type: 'webhook', status: 'succeeded', attempts: 1 });
  expect(execution.actions[0].output).toMatchObject({ status_code: 200, webhook_id: headers['webhook-id'] });
  expect(JSON.stringify(execution)).not.toContain(secret);
}, 90_000);

test('500, 500, 200: three attempts carrying one webhook-id', async () => {
  rx.script('/flaky', [500, 500, 200]);
  const book = await createPlaybook({
    name: 'flaky receiver',
    trigger_type: 'job_failed',
    actions: [{ type: 'webhook', params: { url: `${rx.url}/flaky`, secret } }],
  });
  const res = await s
    .api()
    .post(`/api/playbooks/${book.playbook_id}/execute`)
    .send({ event: { job_id: 'j-1' } })
    .expect(200);
  const hooks = rx.requests.filter((r) => r.path === '/flaky');
  expect(hooks).toHaveLength(3);
  expect(new Set(hooks.map((h) => h.headers['webhook-id'])).size).toBe(1);
  expect(res.body.trigger).toBe('manual');
  expect(res.body.status).toBe('succeeded');
  expect(res.body.actions[0]).toMatchObject({ status: 'succeeded', attempts: 3, output: { status_code: 200 } });
}, 60_000);

test('a 400 is final: one attempt, the action and the execution failed with the status recorded', async () => {
  rx.script('/refuses', [400]);
  const book = await createPlaybook({
    name: 'refusing receiver',
    trigger_type: 'job_failed',
    actions: [
      { type: 'webhook', params: { url: `${rx.url}/refuses`, secret }, on_failure: 'stop' },
      { type: 'notify', params: { message: 'not reached' } },
    ],
  });
  const res = await s.api().post(`/api/playbooks/${book.playbook_id}/execute`).send({}).expect(200);
  expect(rx.requests.filter((r) => r.path === '/refuses')).toHaveLength(1);
  expect(res.body.status).toBe('failed');
  expect(res.body.actions[0]).toMatchObject({ status: 'failed', attempts: 1, output: { status_code: 400 } });
  expect(res.body.actions[0].error).toContain('HTTP 400');
  expect(res.body.actions[1].status).toBe('skipped');
}, 60_000);

test('a dry run renders the parameters and sends nothing', async () => {
  const book = await createPlaybook({
    name: 'dry',
    trigger_type: 'job_failed',
    actions: [{ type: 'webhook', params: { url: `${rx.url}/dry/{{event.job_id}}`, secret } }],
  });
  const before = rx.requests.length;
  const res = await s
    .api()
    .post(`/api/playbooks/${book.playbook_id}/execute`)
    .send({ dry_run: true, event: { job_id: 'job-42' } })
    .expect(200);
  expect(res.body.dry_run).toBe(true);
  expect(res.body.actions[0].status).toBe('dry_run');
  expect(res.body.actions[0].output.would_run).toMatchObject({ url: `${rx.url}/dry/job-42`, secret_set: true });
  expect(JSON.stringify(res.body)).not.toContain('aes-256-gcm');
  expect(rx.requests.length).toBe(before);
}, 60_000);

test('a PUT that leaves out the secret of an unchanged URL keeps the stored one; reads never show it', async () => {
  const body = {
    name: 'kept secret',
    trigger_type: 'job_failed',
    actions: [{ type: 'webhook', params: { url: `${rx.url}/kept`, secret } }],
  };
  const book = await createPlaybook(body);
  const put = await s
    .api()
    .put(`/api/playbooks/${book.playbook_id}`)
    .send({ ...body, name: 'kept secret 2', actions: [{ type: 'webhook', params: { url: `${rx.url}/kept` } }] })
    .expect(200);
  expect(put.body.name).toBe('kept secret 2');
  const read = (await s.api().get(`/api/playbooks/${book.playbook_id}`).expect(200)).body;
  expect(read.actions[0].params).toEqual({ url: `${rx.url}/kept`, secret_set: true });
  await s.api().post(`/api/playbooks/${book.playbook_id}/execute`).send({}).expect(200);
  const hook = rx.requests.find((r) => r.path === '/kept')!;
  expect(() =>
    new Webhook(secret).verify(hook.body, {
      'webhook-id': hook.headers['webhook-id'] as string,
      'webhook-timestamp': hook.headers['webhook-timestamp'] as string,
      'webhook-signature': hook.headers['webhook-signature'] as string,
    }),
  ).not.toThrow();
  const other = await s
    .api()
    .put(`/api/playbooks/${book.playbook_id}`)
    .send({ ...body, actions: [{ type: 'webhook', params: { url: `${rx.url}/elsewhere` } }] })
    .expect(422);
  expect(other.body.error.message).toContain('actions.0.params.secret');
}, 60_000);
