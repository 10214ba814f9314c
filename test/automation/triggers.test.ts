import { MockActivityEnvironment } from '@temporalio/testing';
import { createJobEndActivities } from '../../activities/jobs/record-end';
import { playbookCronWorkflowId } from '../../workflows/automation/definitions';
import { eventually } from '../helpers/harness';
import { automationStack, historyOf, type AutomationStack } from './stack';

let s: AutomationStack;
beforeAll(async () => {
  s = await automationStack('automation-triggers');
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

async function create(body: Record<string, unknown>) {
  const res = await s.api().post('/api/playbooks').send(body);
  expect(res.status).toBe(201);
  return res.body.playbook_id as string;
}

const notify = (message: string) => ({ type: 'notify', params: { channel: 'in_app', message } });

/** A job's end recorded by the kernel's own activity (the producer of job.* events), as its workflow records it. */
async function failJob(jobId: string, jobType = 'clone') {
  await new MockActivityEnvironment().run(
    createJobEndActivities(s.h.store).recordJobEnd,
    {
      jobId,
      status: 'failed' as const,
      error: 'prepareTarget: NotFound: no such catalog',
    },
    jobType,
  );
}

describe('refused at create', () => {
  test.each([
    ['an unknown field', 'event.no_such_field > 1', 'unknown field event.no_such_field'],
    ['this.constructor', 'this.constructor', 'unknown variable this'],
    ['a JS-looking escape', "event.constructor.constructor('return 1')()", 'not a CEL expression'],
  ])('a condition with %s is a 422 naming it', async (_what, conditions, message) => {
    const res = await s
      .api()
      .post('/api/playbooks')
      .send({ name: 'bad', trigger_type: 'job_failed', conditions, actions: [notify('x')] })
      .expect(422);
    expect(res.body.error.message).toContain(message);
  });

  test('legacy {field, operator, value} conditions compile to CEL; an unknown legacy field is refused', async () => {
    const ok = await s
      .api()
      .post('/api/playbooks')
      .send({
        name: 'legacy',
        trigger_type: 'dq_failure',
        conditions: [
          { field: 'failure_rate', operator: 'gt', value: 0.1 },
          { field: 'severity', operator: 'in', value: ['error', 'critical'] },
        ],
        actions: [notify('x')],
      })
      .expect(201);
    expect(ok.body.conditions).toBe('event.failure_rate > 0.1 && event.severity in ["error", "critical"]');
    await s
      .api()
      .post('/api/playbooks')
      .send({
        name: 'legacy-bad',
        trigger_type: 'dq_failure',
        conditions: [{ field: 'job_type', operator: 'eq', value: 'clone' }],
        actions: [notify('x')],
      })
      .expect(422);
  });

  test('trigger_config is checked per trigger type; run_pipeline needs a pipeline_id', async () => {
    const bad = await s
      .api()
      .post('/api/playbooks')
      .send({ name: 'b', trigger_type: 'anomaly', trigger_config: { job_types: ['clone'] }, actions: [notify('x')] })
      .expect(422);
    expect(bad.body.error.details[0].path).toBe('trigger_config');
    await s
      .api()
      .post('/api/playbooks')
      .send({ name: 'b', trigger_type: 'schedule', trigger_config: {}, actions: [notify('x')] })
      .expect(422);
    const pipeline = await s
      .api()
      .post('/api/playbooks')
      .send({ name: 'b', trigger_type: 'job_failed', actions: [{ type: 'run_pipeline', params: {} }] })
      .expect(422);
    expect(pipeline.body.error.details).toEqual([
      { path: 'actions.0.params.pipeline_id', message: 'the pipeline to run is required' },
    ]);
  });
});

test('limit 2: five failures give 2 executions and 3 rate_limited, and the limit holds after a worker restart', async () => {
  const limited = await create({
    name: 'limited',
    trigger_type: 'job_failed',
    trigger_config: { job_types: ['limitjob'] },
    conditions: "event.error.contains('NotFound')",
    actions: [notify('{{event.job_id}} failed')],
    max_executions_per_hour: 2,
  });
  const unmatched = await create({
    name: 'never matches',
    trigger_type: 'job_failed',
    trigger_config: { job_types: ['limitjob'] },
    conditions: "event.source_catalog == 'elsewhere'",
    actions: [notify('never')],
  });
  for (let i = 1; i <= 5; i++) await failJob(`limitjob-${i}`, 'limitjob');
  const runs = await historyOf(s, limited, 5);
  const statuses = runs.map((r: { status: string }) => r.status).sort();
  expect(statuses).toEqual(['rate_limited', 'rate_limited', 'rate_limited', 'succeeded', 'succeeded']);
  for (const r of runs.filter((x: { status: string }) => x.status === 'rate_limited'))
    expect(r.actions.every((a: { status: string }) => a.status === 'skipped')).toBe(true);
  const notMatched = await historyOf(s, unmatched, 5);
  expect(new Set(notMatched.map((r: { status: string }) => r.status))).toEqual(new Set(['not_matched']));

  await s.restartWorker();
  await failJob('limitjob-6', 'limitjob');
  const after = await historyOf(s, limited, 6);
  expect(after[0]).toMatchObject({ status: 'rate_limited', event: { job_id: 'limitjob-6' } });
  expect(after.filter((r: { status: string }) => r.status === 'succeeded')).toHaveLength(2);
}, 90_000);

test('dq_failure fires from a failed quality gate (the DQ engine records the event)', async () => {
  const id = await create({
    name: 'gate failed',
    trigger_type: 'dq_failure',
    trigger_config: { tables: ['prod.sales.*'], min_severity: 'error' },
    actions: [notify('gate failed on {{event.table_fqn}}')],
  });
  const gate = await s
    .api()
    .post('/api/data-quality/gate/evaluate')
    .send({ table_fqn: 'prod.sales.orders' })
    .expect(200);
  expect(gate.body.passed).toBe(false);
  const [run] = await historyOf(s, id, 1);
  expect(run).toMatchObject({ status: 'succeeded', trigger: 'gate_failed', event: { table_fqn: 'prod.sales.orders' } });
}, 60_000);

test('a cron playbook runs its cron workflow while enabled; deleting the playbook stops it', async () => {
  // Its firings at their instants, with their effect, are tested on the time-skipping server
  // (cron-time-skipping.test.ts); here the producer's life on the dev server.
  const id = await create({
    name: 'hourly',
    trigger_type: 'schedule',
    trigger_config: { cron: '0 * * * *', timezone: 'Europe/Paris' },
    actions: [notify('scheduled at {{event.scheduled_at}}')],
  });
  const handle = s.h.env.client.workflow.getHandle(playbookCronWorkflowId(id));
  const described = await handle.describe();
  expect(described.status.name).toBe('RUNNING');
  expect(described.type).toBe('playbookCronWorkflow');
  await s.api().delete(`/api/playbooks/${id}`).expect(200);
  await eventually(async () => (await handle.describe()).status.name === 'TERMINATED', {
    what: 'the playbook cron workflow to stop',
  });
}, 90_000);
