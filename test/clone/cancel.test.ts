import { WorkflowFailedError } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import { cloneCatalogWorkflow } from '../../workflows/clone';
import { faultyWorkspace } from './fixtures/faulty-workspace';
import { seedMiniCatalog } from './fixtures/mini-catalog';
import { createHarness, eventually, type Harness } from '../helpers/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('clone-cancel');
}, 60_000);
afterAll(async () => h?.teardown());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('cancelling a job stops new work within seconds and the job ends cancelled', async () => {
  const root = h.newRoot();
  await seedMiniCatalog(await h.open(root), 'prod', { extraTables: 30 });
  const input = h.jobInput(root, { parallel_tables: 2 });
  // Every table copy takes 300 ms, so the job is mid-flight when cancelled.
  const slow = (w: Parameters<typeof faultyWorkspace>[0]) =>
    faultyWorkspace(
      w,
      () => undefined,
      new Map(),
      async (method) => (method === 'cloneTable' ? sleep(300) : undefined),
    );
  await h.withWorker(
    async () => {
      const handle = await h.env.client.workflow.start(cloneCatalogWorkflow, {
        taskQueue: h.taskQueue,
        workflowId: input.jobId,
        args: [input],
      });
      await eventually(
        async () => (await h.events(input.jobId)).filter((e) => e.event === 'table_finished').length >= 3,
        { what: '3 table_finished events before cancelling' },
      );
      const progress = await handle.query('cloneProgress');
      expect(progress).toMatchObject({ status: 'running', phase: 'schemas' });
      const cancelledAt = Date.now();
      await handle.cancel();
      const err = await handle.result().catch((e: unknown) => e);
      expect(Date.now() - cancelledAt).toBeLessThan(15_000);
      expect(err).toBeInstanceOf(WorkflowFailedError);
      expect((err as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
      expect((await handle.describe()).status.name).toBe('CANCELLED');

      const startedAtClose = (await h.events(input.jobId)).filter((e) => e.event === 'table_started').length;
      await sleep(2000);
      const events = await h.events(input.jobId);
      expect(events.filter((e) => e.event === 'table_started').length).toBe(startedAtClose);
      expect(events.filter((e) => e.event === 'table_finished' && e.status === 'cloned').length).toBeLessThan(20);
      expect(events.at(-1)).toMatchObject({ event: 'status', status: 'cancelled' });
    },
    { wrap: slow },
  );
});
