import { spawn } from 'node:child_process';
import { WorkflowFailedError } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import type { CloneHooks } from '../../activities/clone';
import { PermissionDeniedError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import { readRunLog } from '../../store/jobs/run-logs';
import { quiesceGrantsForJob } from '../../store/clone/quiesce-grants';
import type { CloneJobInput, CloneSummary } from '../../workflows/clone/definitions';
import { createSafetyHarness, type SafetyHarness } from './e2e-harness';
import { seedSafetyCatalogs, sourceGrants } from './fixtures/safety-seed';

let h: SafetyHarness;
beforeAll(async () => {
  h = await createSafetyHarness('quiesce');
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
  const tq = h.taskQueue();
  const summary = (await h.withWorker(tq, async () => (await start(tq, input)).result(), {
    testHooks: [obs.hook],
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
  const tq = h.taskQueue();
  await h.withWorker(
    tq,
    async () => {
      const handle = await start(tq, input);
      while (obs.seen.length === 0) await sleep(50);
      await handle.cancel();
      const err = await handle.result().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkflowFailedError);
      expect((err as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    },
    { testHooks: [obs.hook] },
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
  const tq = h.taskQueue();
  const err = await h.withWorker(tq, async () => (await start(tq, input)).result().catch((e: unknown) => e), {
    testHooks: [denyCatalog],
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
    const tq = h.taskQueue();
    const child = spawn(process.execPath, ['--import', 'tsx', require.resolve('./fixtures/worker-main.ts')], {
      env: { ...process.env, TASK_QUEUE: tq, SLOW_MS: '400', DATABASE_URL: h.databaseUrl! },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => d.toString().includes('worker ready') && resolve());
        child.on('exit', (code) => reject(new Error(`worker exited early (${code})`)));
      });
      const handle = await start(tq, input);
      while ((await readRunLog(h.store.db, input.jobId)).filter((r) => r.data?.event === 'table_started').length < 2)
        await sleep(100);
      expect(await sourceGrants(ws)).toEqual(WHILE_QUIESCED);
      child.kill('SIGKILL');
      const summary = (await h.withWorker(tq, () => handle.result())) as CloneSummary;
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
  const tq = h.taskQueue();
  await h.withWorker(
    tq,
    async () => {
      const handle = await start(tq, input);
      while (obs.seen.length === 0) await sleep(50);
      await handle.signal('releaseQuiesce');
      for (let i = 0; i < 100 && JSON.stringify(await sourceGrants(ws)) !== JSON.stringify(before); i++)
        await sleep(50);
      expect(await sourceGrants(ws)).toEqual(before);
      expect((await handle.describe()).status.name).toBe('RUNNING');
      expect(((await handle.result()) as CloneSummary).status).toBe('completed');
    },
    { testHooks: [obs.hook] },
  );
  expect(await sourceGrants(ws)).toEqual(before);
});
