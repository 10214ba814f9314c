import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createMdmStewardActivities } from '../../activities/mdm/steward';
import { slaDueAt } from '../../activities/mdm/logic/sla';
import type { Store } from '../../store/db';
import { openCases } from '../../store/mdm/cases';
import { recentNotifications } from '../../store/notifications/repo';
import { executableSpec } from '../../workers/temporal-binary';
import { mdmStewardshipOverdueWorkflow } from '../../workflows/mdm/steward-workflow';
import { createTestStore } from '../helpers/db';
import { uniqueTaskQueue } from '../helpers/temporal';

let store: Store;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(() => store?.close());

const overdue = async () =>
  (await recentNotifications(store.db, 100)).filter((n) => n.type === 'mdm_case_overdue').map((n) => n.jobId);

test('the overdue activity under a controlled clock: nothing before due_at, one notification per case after, once', async () => {
  const opened = new Date('2026-11-16T09:00:00Z'); // Monday; match review due Monday 23rd (US calendar)
  const { opened: ids } = await openCases(
    store.db,
    [{ entity_type: 'clock', type: 'match_review', records: [{ system: 'a', record_id: '1' }] }],
    slaDueAt('US'),
    opened,
  );
  const acts = createMdmStewardActivities({ store });
  expect(await acts.mdmNotifyOverdueCases({ now: '2026-11-22T23:00:00Z' })).toEqual({ notified: [] });
  expect(await acts.mdmNotifyOverdueCases({ now: '2026-11-23T09:00:01Z' })).toEqual({ notified: ids });
  expect(await acts.mdmNotifyOverdueCases({ now: '2026-11-24T09:00:00Z' })).toEqual({ notified: [] });
  expect(await overdue()).toEqual(ids);
});

describe('on the time-skipping server', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: executableSpec('temporal-test-server') },
    });
  }, 120_000);
  afterAll(async () => {
    await env?.teardown();
  });

  test('a case opened now is overdue once eight days have skipped by, and the workflow notifies it', async () => {
    const start = new Date(await env.currentTimeMs());
    const { opened } = await openCases(
      store.db,
      [{ entity_type: 'skip', type: 'conflict_resolution', records: [{ system: 'b', record_id: '2' }] }],
      slaDueAt(''),
      start,
    );
    const taskQueue = uniqueTaskQueue('mdm-overdue');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowsPath: require.resolve('../../workflows/mdm/steward-workflow'),
      activities: createMdmStewardActivities({ store }),
    });
    await worker.runUntil(async () => {
      const first = await env.client.workflow.execute(mdmStewardshipOverdueWorkflow, {
        taskQueue,
        workflowId: `${taskQueue}-1`,
      });
      expect(first).toEqual({ notified: 0 });
      await env.sleep('8 days');
      const later = await env.client.workflow.execute(mdmStewardshipOverdueWorkflow, {
        taskQueue,
        workflowId: `${taskQueue}-2`,
      });
      expect(later).toEqual({ notified: 1 });
    });
    expect(await overdue()).toContain(opened[0]);
  });
});
