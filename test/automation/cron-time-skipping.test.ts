import { TestWorkflowEnvironment } from '@temporalio/testing';
import { recentNotifications } from '../../store/notifications/repo';
import { executableSpec } from '../../workers/temporal-binary';
import { playbookCronWorkflowId } from '../../workflows/automation/definitions';
import { eventually } from '../helpers/harness';
import { automationStack, historyOf, type AutomationStack } from './stack';

/**
 * The cron trigger from its real producer on the time-skipping test server (`temporal-test-server`): a playbook
 * saved through the API with `{cron: '0 6 * * *'}` starts its cron workflow, whose durable timer sleeps until
 * 06:00; skipping the server's clock past it fires the playbook at that instant, and the execution's action has
 * its effect (an in-app notification naming the instant). The whole stack (API, store, worker) runs against the
 * time-skipping server; the event dispatcher is left out, as its 5 s poll would tick through every skipped hour.
 */
const HOUR = 3600_000;
let ts: TestWorkflowEnvironment;
let s: AutomationStack;
beforeAll(async () => {
  ts = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: executableSpec('temporal-test-server') },
  });
  process.env.TEMPORAL_TEST_ADDRESS = ts.connection.options.address; // the stack's harness connects here
  s = await automationStack('automation-cron-ts', undefined, { dispatcher: false });
}, 180_000);
afterAll(async () => {
  await s?.stop();
  await ts?.teardown();
});

/** The next 06:00 UTC strictly after `ms`. */
const nextSix = (ms: number) => {
  const d = new Date(ms);
  const six = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 6);
  return six > ms ? six : six + 24 * HOUR;
};

test('a cron playbook fires at its time on the time-skipping server and its action takes effect', async () => {
  const body = {
    name: 'daily-six',
    trigger_type: 'schedule',
    trigger_config: { cron: '0 6 * * *' },
    actions: [{ type: 'notify', params: { channel: 'in_app', message: 'daily at {{event.scheduled_at}}' } }],
  };
  const created = await s.api().post('/api/playbooks').send(body);
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
  const id = created.body.playbook_id as string;
  const cron = s.h.env.client.workflow.getHandle(playbookCronWorkflowId(id));
  expect((await cron.describe()).status.name).toBe('RUNNING');

  const start = await ts.currentTimeMs();
  const first = nextSix(start);
  // Before its time nothing has fired.
  await ts.sleep(Math.max(0, first - start - HOUR));
  expect((await s.api().get(`/api/playbooks/${id}/history`).expect(200)).body.executions).toHaveLength(0);

  // Past 06:00 and the next day's 06:00: two firings, each at its instant.
  await ts.sleep(first + 24 * HOUR + HOUR - (await ts.currentTimeMs()));
  const runs = await historyOf(s, id, 2, 60_000);
  expect(runs.map((r: { event: { scheduled_at: string } }) => Date.parse(r.event.scheduled_at)).sort()).toEqual([
    first,
    first + 24 * HOUR,
  ]);
  for (const r of runs) {
    expect(r).toMatchObject({ trigger: 'schedule', status: 'succeeded', actions: [{ status: 'succeeded' }] });
  }
  const notes = (await recentNotifications(s.h.store.db, 50)).filter((n) => n.type === 'playbook');
  expect(notes.map((n) => n.message).sort()).toEqual([
    `daily at ${new Date(first).toISOString()}`,
    `daily at ${new Date(first + 24 * HOUR).toISOString()}`,
  ]);

  // Disabled: the producer stops, so a skipped day fires nothing more.
  await s
    .api()
    .put(`/api/playbooks/${id}`)
    .send({ ...body, enabled: false })
    .expect(200);
  await eventually(async () => (await cron.describe()).status.name !== 'RUNNING', {
    what: 'the cron workflow to stop when the playbook is disabled',
  });
  await ts.sleep(24 * HOUR);
  expect((await s.api().get(`/api/playbooks/${id}/history`).expect(200)).body.executions).toHaveLength(2);
}, 180_000);
