import { ActivityFailure, ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { InvalidInputError, InvalidWarehouseError, TransientError } from '../../platform/errors';
import type { CloneTableOptions } from '../../platform/types';
import { faultyWorkspace } from './fixtures/faulty-workspace';
import { seedMiniCatalog } from './fixtures/mini-catalog';
import { createHarness, type Harness } from '../helpers/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('clone-retry');
}, 60_000);
afterAll(async () => h?.teardown());

const targetName = (args: unknown[]) => (args[0] as CloneTableOptions).target.name;

test('a transient error on one table is retried with backoff and the job succeeds', async () => {
  const root = h.newRoot();
  const ws = await h.open(root);
  await seedMiniCatalog(ws);
  let thrown = 0;
  const input = h.jobInput(root, {});
  const summary = await h.withWorker(() => h.run(input), {
    wrap: (w) =>
      faultyWorkspace(w, (method, args) => {
        if (method === 'cloneTable' && targetName(args) === 'orders' && thrown++ === 0)
          return new TransientError('warehouse busy (HTTP 503)');
      }),
  });
  expect(thrown).toBe(2);
  expect(summary).toMatchObject({ status: 'completed', tables_cloned: 2, tables_failed: 0 });
  const events = await h.events(input.jobId);
  expect(events.filter((e) => e.event === 'retry')).toEqual([expect.objectContaining({ table: 'orders', attempt: 2 })]);
  expect(events.find((e) => e.event === 'table_finished' && e.table === 'orders')).toMatchObject({
    status: 'cloned',
    attempt: 2,
  });
  expect(await ws.tableChecksum({ catalog: 'dev', schema: 'sales', name: 'orders' })).toBe(
    await ws.tableChecksum({ catalog: 'prod', schema: 'sales', name: 'orders' }),
  );
});

test('a logical error fails that table at once, without retry, and the others still clone', async () => {
  const root = h.newRoot();
  await seedMiniCatalog(await h.open(root));
  const calls = new Map<string, number>();
  let ordersCalls = 0;
  const input = h.jobInput(root, {});
  const summary = await h.withWorker(() => h.run(input), {
    wrap: (w) =>
      faultyWorkspace(
        w,
        (method, args) => {
          if (method === 'cloneTable' && targetName(args) === 'orders') {
            ordersCalls += 1;
            return new InvalidInputError('[DELTA_INVALID_CHARACTERS] bad column name');
          }
        },
        calls,
      ),
  });
  expect(ordersCalls).toBe(1);
  expect(summary).toMatchObject({ status: 'failed', tables_cloned: 1, tables_failed: 1 });
  const failed = (await h.events(input.jobId)).find((e) => e.event === 'table_finished' && e.status === 'failed');
  expect(failed).toMatchObject({
    table: 'orders',
    attempts: 1,
    errorType: 'InvalidInput',
    error: '[DELTA_INVALID_CHARACTERS] bad column name',
  });
});

test('with enable_retry off a transient error is not retried', async () => {
  const root = h.newRoot();
  await seedMiniCatalog(await h.open(root));
  let thrown = 0;
  const summary = await h.withWorker(() => h.run(h.jobInput(root, { enable_retry: false })), {
    wrap: (w) =>
      faultyWorkspace(w, (method, args) =>
        method === 'cloneTable' && targetName(args) === 'orders' && thrown++ === 0
          ? new TransientError('timeout')
          : undefined,
      ),
  });
  expect(thrown).toBe(1);
  expect(summary).toMatchObject({ status: 'failed', tables_failed: 1 });
});

test('an invalid warehouse fails the job at once: WorkflowFailedError → ActivityFailure → ApplicationFailure', async () => {
  const root = h.newRoot();
  await seedMiniCatalog(await h.open(root));
  const calls = new Map<string, number>();
  const err = await h
    .withWorker(() => h.run(h.jobInput(root, {})), {
      wrap: (w) =>
        faultyWorkspace(
          w,
          (method) =>
            method === 'listSchemas' ? new InvalidWarehouseError('warehouse abc123 does not exist') : undefined,
          calls,
        ),
    })
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(WorkflowFailedError);
  const activity = (err as WorkflowFailedError).cause;
  expect(activity).toBeInstanceOf(ActivityFailure);
  const app = (activity as ActivityFailure).cause;
  expect(app).toBeInstanceOf(ApplicationFailure);
  expect(app).toMatchObject({
    type: 'InvalidWarehouse',
    nonRetryable: true,
    message: 'warehouse abc123 does not exist',
  });
  expect(calls.get('listSchemas')).toBe(1);
});
