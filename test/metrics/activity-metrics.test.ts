import { PermissionDeniedError, TransientError } from '../../platform/errors';
import type { CloneTableOptions } from '../../platform/types';
import { renderMetrics } from '../../platform/observability/metrics';
import { faultyWorkspace } from '../clone/fixtures/faulty-workspace';
import { seedMiniCatalog } from '../clone/fixtures/mini-catalog';
import { createHarness, type Harness } from '../helpers/harness';
import { sampleValue } from './prom-text';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('activity-metrics');
}, 60_000);
afterAll(async () => h?.teardown());

const targetName = (args: unknown[]) => (args[0] as CloneTableOptions).target.name;
const failures = (text: string, failure_type: string) =>
  sampleValue(text, 'lakeward_activity_failures_total', { failure_type });

test('a retried table batch counts an attempt, a retry and a failure typed Transient; a denied target PermissionDenied', async () => {
  const root = h.newRoot();
  await seedMiniCatalog(h.open(root));
  const before = await renderMetrics();
  let thrown = 0;
  const summary = await h.withWorker(() => h.run(h.jobInput(root, {})), {
    wrap: (w) =>
      faultyWorkspace(w, (method, args) => {
        if (method === 'cloneTable' && targetName(args) === 'orders' && thrown++ === 0)
          return new TransientError('warehouse busy (HTTP 503)');
      }),
  });
  expect(summary).toMatchObject({ status: 'completed', tables_failed: 0 });
  const after = await renderMetrics();
  const delta = (name: string, labels: Record<string, string>) =>
    sampleValue(after, name, labels) - sampleValue(before, name, labels);
  const batchActivities = ['cloneTables', 'cloneTablesAndFinish'];
  const retried = batchActivities.find((a) => delta('lakeward_activity_retries_total', { activity_type: a }) > 0);
  expect(retried).toBeDefined();
  expect(delta('lakeward_activity_retries_total', { activity_type: retried! })).toBe(1);
  expect(delta('lakeward_activity_attempts_total', { activity_type: retried! })).toBeGreaterThanOrEqual(2);
  expect(delta('lakeward_activity_failures_total', { activity_type: retried!, failure_type: 'Transient' })).toBe(1);

  // A permission error while preparing the target fails that activity once, non-retryable, typed PermissionDenied.
  const denied = h.newRoot();
  await seedMiniCatalog(h.open(denied));
  const beforeDenied = failures(await renderMetrics(), 'PermissionDenied');
  await expect(
    h.withWorker(() => h.run(h.jobInput(denied, {})), {
      wrap: (w) =>
        faultyWorkspace(w, (method) =>
          method === 'createCatalog' ? new PermissionDeniedError('no CREATE CATALOG on the metastore') : undefined,
        ),
    }),
  ).rejects.toThrow();
  const text = await renderMetrics();
  expect(failures(text, 'PermissionDenied') - beforeDenied).toBe(1);
  expect(
    sampleValue(text, 'lakeward_activity_failures_total', {
      activity_type: 'prepareTarget',
      failure_type: 'PermissionDenied',
    }),
  ).toBe(1);
}, 120_000);
