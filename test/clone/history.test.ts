import { cloneCatalogWorkflow } from '../../workflows/clone';
import { syntheticWorkspace } from './fixtures/synthetic-workspace';
import { createHarness, type Harness } from '../helpers/harness';
import { jobHistoryStats } from './history-size';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('clone-history');
}, 60_000);
afterAll(async () => h?.teardown());

/**
 * History stays bounded because the job workflow continues as new every `schemasPerRun` schemas and a
 * schema workflow every `tablesPerRun` tables. Small limits, given in the job's input as the API gives its
 * own, make the bound visible on a small catalog; bench/clone-catalog.ts measures the default limits on a
 * 10,000-table catalog.
 */
const limits = { tablesPerRun: 40, batchTables: 1, batchBytes: 1, schemasPerRun: 4, progressEvery: 10 };

test.each([
  ['many schemas', 12, 10],
  ['one big schema', 1, 150],
])(
  '%s: every run of every workflow stays under the bound, whatever the catalog size',
  async (_label, schemas, tablesPerSchema) => {
    const root = h.newRoot();
    const input = h.jobInput(root, {
      source_catalog: 'big',
      destination_catalog: 'big_copy',
      parallel_tables: 4,
      max_workers: 4,
    });
    const counters = { clones: 0 };
    const summary = await h.withWorker(
      async () => {
        const handle = await h.env.client.workflow.start(cloneCatalogWorkflow, {
          taskQueue: h.taskQueue,
          workflowId: input.jobId,
          args: [{ ...input, limits }],
        });
        const result = await handle.result();
        return { result, stats: await jobHistoryStats(h.env.client, input.jobId, handle.firstExecutionRunId) };
      },
      {
        wrap: (ws) => syntheticWorkspace(ws, { catalog: 'big', schemas, tablesPerSchema }, counters),
        maxActivities: 32,
      },
    );
    const tables = schemas * tablesPerSchema;
    expect(summary.result).toMatchObject({ status: 'completed', tables_cloned: tables });
    expect(counters.clones).toBe(tables);
    const { stats } = summary;
    // One table costs at most 6 events (scheduled, started, completed + a workflow task), so a schema run
    // holds at most ~6 × tablesPerRun plus its fixed steps; a job run ~10 events per child plus progress
    // signals, and a job with one schema runs that schema's first tablesPerRun tables itself.
    const inline = schemas === 1 ? 6 * limits.tablesPerRun : 0;
    expect(stats.childMax).toBeLessThanOrEqual(6 * limits.tablesPerRun + 60);
    expect(stats.parentMax).toBeLessThanOrEqual(
      10 * limits.schemasPerRun +
        (4 * (tables / limits.progressEvery)) / Math.max(1, Math.ceil(schemas / limits.schemasPerRun)) +
        inline +
        60,
    );
    if (schemas > limits.schemasPerRun) expect(stats.parentRuns).toBe(Math.ceil(schemas / limits.schemasPerRun));
    // The one schema's first run is the job's own; the rest go to one schema workflow that continues as new.
    if (schemas === 1) expect(stats.childRuns).toBe(Math.ceil(tablesPerSchema / limits.tablesPerRun) - 1);
    else expect(stats.childRuns).toBeGreaterThanOrEqual(schemas);
    // Without continue-as-new one history would have held all of this.
    expect(stats.totalEvents).toBeGreaterThan(2 * Math.max(stats.childMax, stats.parentMax));
  },
);

test('a job run that reaches eventsPerRun starts no more schemas and continues as new', async () => {
  const root = h.newRoot();
  // Schemas alone would never split this job (schemasPerRun 1,000); its events do.
  const capped = { ...limits, schemasPerRun: 1000, eventsPerRun: 120 };
  const input = h.jobInput(root, { source_catalog: 'big', destination_catalog: 'big_copy', max_workers: 2 });
  const counters = { clones: 0 };
  const { result, stats } = await h.withWorker(
    async () => {
      const handle = await h.env.client.workflow.start(cloneCatalogWorkflow, {
        taskQueue: h.taskQueue,
        workflowId: input.jobId,
        args: [{ ...input, limits: capped }],
      });
      const result = await handle.result();
      return { result, stats: await jobHistoryStats(h.env.client, input.jobId, handle.firstExecutionRunId) };
    },
    { wrap: (ws) => syntheticWorkspace(ws, { catalog: 'big', schemas: 16, tablesPerSchema: 3 }, counters) },
  );
  expect(result).toMatchObject({ status: 'completed', tables_cloned: 48 });
  expect(counters.clones).toBe(48);
  expect(stats.parentRuns).toBeGreaterThan(1);
  // The cap, plus what the (at most max_workers) schemas running when it was reached still add.
  expect(stats.parentMax).toBeLessThanOrEqual(capped.eventsPerRun + 2 * 20);
});
