import { WorkflowFailedError } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import type { CloneHooks } from '../../activities/clone';
import { PermissionDeniedError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import { readRunLog } from '../../store/jobs/run-logs';
import { quiesceGrantsForJob } from '../../store/clone/quiesce-grants';
import type { CloneJobInput, CloneSummary } from '../../workflows/clone/definitions';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { startWorkerProcess } from '../helpers/worker-process';
import { seedSafetyCatalogs, sourceGrants } from './fixtures/safety-seed';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('quiesce');
});
afterAll(async () => h?.teardown());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const start = (taskQueue: string, input: CloneJobInput) =>
  h.env.client.workflow.start('cloneCatalogWorkflow', { taskQueue, workflowId: input.jobId, args: [input] });

const WHILE_QUIESCED = {
  'hr/hr_team': ['SELECT'],
  'sales/analysts': ['SELECT', 'USE SCHEMA'],
  'sales/etl': ['USE SCHEMA'],
};

async function seeded(extraTables = 0) {
  const root = h.newRoot();
  const ws = h.open(root);
  await seedSafetyCatalogs(ws);
  for (let i = 0; i < extraTables; i++) {
    const ref = { catalog: 'prod', schema: 'sales', name: `t${i}` };
    await ws.createTable({ ref, columns: [{ name: 'k', type: 'int' }] });
    await ws.insertRows(ref, [{ k: i }]);
  }
  return { root, ws, before: await sourceGrants(ws) };
}

/** Records the source grants seen while the first table is cloned; optionally slows every table. */
function observer(ws: Workspace, slowMs = 0) {
  const seen: Record<string, string[]>[] = [];
  const hook: CloneHooks = {
    async beforeTableTouched() {
      if (seen.length === 0) seen.push(await sourceGrants(ws));
      if (slowMs) await sleep(slowMs);
    },
  };
  return { seen, hook };
}

test('write grants are revoked during the clone and identical to before after success', async () => {
  const { root, ws, before } = await seeded();
  expect(before['sales/etl']).toEqual(['CREATE TABLE', 'MODIFY', 'USE SCHEMA']);
  const obs = observer(ws);
  const input = h.jobInput(root, { quiesce_source: true });
  const tq = h.newTaskQueue();
  const summary = (await h.withWorker(async () => (await start(tq, input)).result(), {
    taskQueue: tq,
    cloneHooks: [obs.hook],
  })) as CloneSummary;
  expect(summary.status).toBe('completed');
  expect(obs.seen[0]).toEqual(WHILE_QUIESCED);
  expect(await sourceGrants(ws)).toEqual(before);
  expect((await quiesceGrantsForJob(h.store.db, input.jobId)).map((r) => r.status)).toEqual(['restored', 'restored']);
});

test('grants come back after cancel', async () => {
  const { root, ws, before } = await seeded(6);
  const obs = observer(ws, 400);
  const input = h.jobInput(root, { quiesce_source: true });
  const tq = h.newTaskQueue();
  await h.withWorker(
    async () => {
      const handle = await start(tq, input);
      await eventually(() => obs.seen.length > 0, { what: 'the first table to start (source grants observed)' });
      await handle.cancel();
      const err = await handle.result().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkflowFailedError);
      expect((err as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    },
    { taskQueue: tq, cloneHooks: [obs.hook] },
  );
  expect(obs.seen[0]).toEqual(WHILE_QUIESCED);
  expect(await sourceGrants(ws)).toEqual(before);
});

test('grants come back after an induced failure', async () => {
  const { root, ws, before } = await seeded();
  const denyCatalog: CloneHooks = {
    wrapTarget: (_ctx, dst) =>
      new Proxy(dst, {
        get: (t, p, r) =>
          p === 'createCatalog'
            ? async () => {
                throw new PermissionDeniedError('no CREATE CATALOG on the metastore');
              }
            : Reflect.get(t, p, r),
      }),
  };
  const input = h.jobInput(root, { quiesce_source: true, destination_catalog: 'fresh' });
  const tq = h.newTaskQueue();
  const err = await h.withWorker(async () => (await start(tq, input)).result().catch((e: unknown) => e), {
    taskQueue: tq,
    cloneHooks: [denyCatalog],
  });
  expect(err).toBeInstanceOf(WorkflowFailedError);
  let cause = err as Error;
  while (cause.cause instanceof Error) cause = cause.cause;
  expect(cause.message).toMatch(/no CREATE CATALOG/);
  // What was revoked (recorded before each revoke) was all given back.
  const rows = await quiesceGrantsForJob(h.store.db, input.jobId);
  expect(rows.map((r) => [r.schemaName, r.principal, [...r.privileges].sort(), r.status]).sort()).toEqual([
    ['hr', 'hr_team', ['MODIFY'], 'restored'],
    ['sales', 'etl', ['CREATE TABLE', 'MODIFY'], 'restored'],
  ]);
  expect(await sourceGrants(ws)).toEqual(before);
});

const withPostgres = process.env.DATABASE_URL ? test : test.skip;
// Needs a Postgres server: the killed worker and its successor are two processes sharing the store.
withPostgres(
  'grants come back after the worker was killed mid-job',
  async () => {
    const { root, ws, before } = await seeded(8);
    const input = h.jobInput(root, { quiesce_source: true });
    const tq = h.newTaskQueue();
    const child = await startWorkerProcess(h, { taskQueue: tq, databaseUrl: h.databaseUrl!, cloneDelayMs: 400 });
    try {
      const handle = await start(tq, input);
      await eventually(
        async () =>
          (await readRunLog(h.store.db, input.jobId)).filter((r) => r.data?.event === 'table_started').length >= 2,
        { what: '2 table_started events in the killed worker' },
      );
      expect(await sourceGrants(ws)).toEqual(WHILE_QUIESCED);
      child.kill('SIGKILL');
      const summary = (await h.withWorker(() => handle.result(), { taskQueue: tq })) as CloneSummary;
      expect(summary.tables_cloned).toBe(11);
    } finally {
      child.kill('SIGKILL');
    }
    expect(await sourceGrants(ws)).toEqual(before);
  },
  120_000,
);

test('the releaseQuiesce signal gives grants back early while the clone continues', async () => {
  const { root, ws, before } = await seeded(4);
  const obs = observer(ws, 300);
  const input = h.jobInput(root, { quiesce_source: true });
  const tq = h.newTaskQueue();
  await h.withWorker(
    async () => {
      const handle = await start(tq, input);
      await eventually(() => obs.seen.length > 0, { what: 'the first table to start (source grants observed)' });
      await handle.signal('releaseQuiesce');
      await eventually(async () => JSON.stringify(await sourceGrants(ws)) === JSON.stringify(before), {
        what: 'source grants restored after releaseQuiesce',
        timeoutMs: 5_000,
      });
      expect(await sourceGrants(ws)).toEqual(before);
      expect((await handle.describe()).status.name).toBe('RUNNING');
      expect(((await handle.result()) as CloneSummary).status).toBe('completed');
    },
    { taskQueue: tq, cloneHooks: [obs.hook] },
  );
  expect(await sourceGrants(ws)).toEqual(before);
});
