import { ActivityFailure, ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { PermissionDeniedError, TransientError } from '../../platform/errors';
import type { CloneTableOptions, Securable } from '../../platform/types';
import type { Store } from '../../store/db';
import { readRunLog } from '../../store/jobs/run-logs';
import { WORKER_TUNING } from '../../workers/worker-tuning';
import type { CloneSummary } from '../../workflows/clone/definitions';
import { createHarness, newJobId, type Harness } from '../helpers/harness';
import { faultyWorkspace } from './fixtures/faulty-workspace';
import { seedMiniCatalog } from './fixtures/mini-catalog';
import { seedSafetyCatalogs, sourceGrants } from './fixtures/safety-seed';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('failure-attempts');
}, 60_000);
afterAll(async () => h?.teardown());

/** The ApplicationFailure at the end of a failed workflow's chain (WorkflowFailedError → ActivityFailure → it). */
function endOfChain(err: unknown): { activity: ActivityFailure; failure: ApplicationFailure } {
  expect(err).toBeInstanceOf(WorkflowFailedError);
  const activity = (err as WorkflowFailedError).cause;
  expect(activity).toBeInstanceOf(ActivityFailure);
  const failure = (activity as ActivityFailure).cause;
  expect(failure).toBeInstanceOf(ApplicationFailure);
  expect(failure?.cause).toBeUndefined();
  return { activity: activity as ActivityFailure, failure: failure as ApplicationFailure };
}

/** The attempt that ended an activity, from the workflow's history (a retried activity records only its last). */
async function lastAttempt(workflowId: string, activityType: string): Promise<number> {
  const events = (await h.env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === activityType);
  if (!scheduled) throw new Error(`${activityType} was never scheduled in ${workflowId}`);
  const started = events.find(
    (e) => String(e.activityTaskStartedEventAttributes?.scheduledEventId) === String(scheduled.eventId),
  );
  return started?.activityTaskStartedEventAttributes?.attempt ?? 0;
}

const onSource = (args: unknown[]) => (args[0] as Securable).catalog === 'prod';

test('a permission error preparing the clone target is attempted once and fails the job as PermissionDenied', async () => {
  const root = h.newRoot();
  await seedMiniCatalog(h.open(root));
  const calls = new Map<string, number>();
  const input = h.jobInput(root, { destination_catalog: 'fresh' });
  const err = await h
    .withWorker(() => h.run(input), {
      wrap: (ws) =>
        faultyWorkspace(
          ws,
          (m) => (m === 'createCatalog' ? new PermissionDeniedError('no CREATE CATALOG on the metastore') : undefined),
          calls,
        ),
    })
    .catch((e: unknown) => e);
  const { activity, failure } = endOfChain(err);
  expect(activity.activityType).toBe('prepareTarget');
  expect(failure).toMatchObject({
    type: 'PermissionDenied',
    nonRetryable: true,
    message: 'no CREATE CATALOG on the metastore',
  });
  expect(calls.get('createCatalog')).toBe(1);
});

test('a permission error copying a table fails that table at once, recorded as PermissionDenied', async () => {
  const root = h.newRoot();
  await seedMiniCatalog(h.open(root));
  let copies = 0;
  const input = h.jobInput(root, {});
  const summary = await h.withWorker(() => h.run(input), {
    wrap: (ws) =>
      faultyWorkspace(ws, (m, args) => {
        if (m !== 'cloneTable' || (args[0] as CloneTableOptions).target.name !== 'orders') return undefined;
        copies += 1;
        return new PermissionDeniedError('no SELECT on prod.sales.orders');
      }),
  });
  expect(summary).toMatchObject({ status: 'failed', tables_failed: 1 });
  expect(copies).toBe(1);
  const failed = (await h.events(input.jobId)).find((e) => e.event === 'table_finished' && e.status === 'failed');
  expect(failed).toMatchObject({ table: 'orders', attempts: 1, errorType: 'PermissionDenied' });
});

test('a permission error quiescing the source is attempted once (not 30 times) and fails as PermissionDenied', async () => {
  const root = h.newRoot();
  const ws = h.open(root);
  await seedSafetyCatalogs(ws);
  const before = await sourceGrants(ws);
  let thrown = 0;
  const input = h.jobInput(root, { quiesce_source: true });
  const err = await h
    .withWorker(() => h.run(input), {
      wrap: (w) =>
        faultyWorkspace(w, (m, args) => {
          if (m !== 'revoke' || !onSource(args)) return undefined;
          thrown += 1;
          return new PermissionDeniedError('no MANAGE on schema prod.sales');
        }),
    })
    .catch((e: unknown) => e);
  const { activity, failure } = endOfChain(err);
  expect(activity.activityType).toBe('quiesceSource');
  expect(failure).toMatchObject({ type: 'PermissionDenied', nonRetryable: true });
  expect(thrown).toBe(1);
  expect(await lastAttempt(input.jobId, 'quiesceSource')).toBe(1);
  expect(await sourceGrants(ws)).toEqual(before);
});

test('a transient error quiescing the source is retried and attempt 2 lets the clone complete', async () => {
  const root = h.newRoot();
  const ws = h.open(root);
  await seedSafetyCatalogs(ws);
  const before = await sourceGrants(ws);
  let revokes = 0;
  const input = h.jobInput(root, { quiesce_source: true });
  const summary: CloneSummary = await h.withWorker(() => h.run(input), {
    wrap: (w) =>
      faultyWorkspace(w, (m, args) =>
        m === 'revoke' && onSource(args) && revokes++ === 0
          ? new TransientError('HTTP 503 service unavailable')
          : undefined,
      ),
  });
  expect(summary.status).toBe('completed');
  expect(revokes).toBeGreaterThan(1);
  expect(await lastAttempt(input.jobId, 'quiesceSource')).toBe(2);
  expect(await sourceGrants(ws)).toEqual(before);
});

describe('job kernel activities', () => {
  let bundle: Awaited<ReturnType<typeof bundleWorkflowCode>>;
  beforeAll(async () => {
    bundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../jobs/fixtures/echo-workflows') });
  }, 60_000);

  /** The real store, whose run-log inserts fail as `fault` says (null: the insert goes through). */
  function faultyStore(fault: () => Error | null): Store {
    const db = new Proxy(h.store.db, {
      get(target, prop, receiver) {
        if (prop !== 'insert') return Reflect.get(target, prop, receiver);
        return (table: Parameters<Store['db']['insert']>[0]) => {
          const err = fault();
          if (err) throw err;
          return target.insert(table);
        };
      },
    });
    return { ...h.store, db };
  }

  async function runEcho(store: Store) {
    const taskQueue = h.newTaskQueue();
    const worker = await Worker.create({
      connection: h.env.nativeConnection,
      taskQueue,
      ...WORKER_TUNING,
      workflowBundle: bundle,
      activities: h.activities({ deps: { store } }),
    });
    const jobId = newJobId();
    const result = await worker
      .runUntil(
        h.env.client.workflow.execute('echoJobWorkflow', {
          taskQueue,
          workflowId: jobId,
          args: [{ jobId, steps: 0, stepMs: 0 }],
        }),
      )
      .catch((e: unknown) => e);
    return { jobId, result };
  }

  test('a permission error in a kernel activity is attempted once and fails as PermissionDenied', async () => {
    let inserts = 0;
    const { jobId, result } = await runEcho(
      faultyStore(() => {
        inserts += 1;
        return new PermissionDeniedError('no INSERT on run_logs');
      }),
    );
    const { activity, failure } = endOfChain(result);
    expect(activity.activityType).toBe('appendJobEvents');
    expect(failure).toMatchObject({ type: 'PermissionDenied', nonRetryable: true, message: 'no INSERT on run_logs' });
    expect(inserts).toBe(1);
    expect(await lastAttempt(jobId, 'appendJobEvents')).toBe(1);
  });

  test('a transient error in a kernel activity is retried and attempt 2 writes the event', async () => {
    let inserts = 0;
    const { jobId, result } = await runEcho(
      faultyStore(() => (inserts++ === 0 ? new TransientError('connection reset (ECONNRESET)') : null)),
    );
    expect(result).toEqual({ status: 'completed', steps: 0 });
    expect(await lastAttempt(jobId, 'appendJobEvents')).toBe(2);
    expect((await readRunLog(h.store.db, jobId)).map((r) => r.message)).toEqual(['echo running']);
  });
});
