import { ActivityFailure, WorkflowFailedError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { connectTestEnv, uniqueTaskQueue } from '../helpers/temporal';
import { createRollbackActivities, recordBeforeChange } from '../../activities/clone/rollback/activities';
import { rollbackWorkflow } from '../../workflows/clone/rollback-workflow';
import { rollbackWorkflowId } from '../../workflows/clone/rollback-definitions';
import { getRollbackLog } from '../../store/clone/rollback-logs';
import { makeTable, rowsOf, safetyFixture } from './safety-helpers';

let env: TestWorkflowEnvironment;
let fx: Awaited<ReturnType<typeof safetyFixture>>;
beforeAll(async () => {
  env = await connectTestEnv();
  fx = await safetyFixture('rollback');
});
afterAll(async () => {
  await fx?.cleanup();
  await env?.teardown();
});

const target = (catalog: string) => ({ label: 'local', workspace: fx.ref, destinationCatalog: catalog });

async function runRollback(rollbackId: string) {
  const taskQueue = uniqueTaskQueue('rollback');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../../workflows/clone/rollback-workflow'),
    activities: createRollbackActivities(fx.deps),
  });
  return worker.runUntil(
    env.client.workflow.execute(rollbackWorkflow, {
      taskQueue,
      workflowId: `${rollbackWorkflowId(rollbackId)}-${taskQueue}`,
      args: [{ rollbackId }],
    }),
  );
}

test('rollback restores pre-existing tables to their recorded version and drops only what the job created', async () => {
  const { ws } = fx;
  await ws.createCatalog({ name: 'dst' });
  await ws.createSchema({ catalog: 'dst', name: 'sales' });
  const kept = { catalog: 'dst', schema: 'sales', name: 'orders' };
  await makeTable(ws, kept, [
    { id: 1, name: 'a' },
    { id: 2, name: 'b' },
  ]);
  const before = await rowsOf(ws, kept);
  const recordedVersion = (await ws.describeTable(kept)).version;

  // What a clone job records before it touches anything, then does.
  const job = 'clone-rb-1';
  const record = (objects: { type: 'catalog' | 'schema' | 'table' | 'view' | 'function' | 'volume'; fqn: string }[]) =>
    recordBeforeChange(fx.deps, { jobId: job, sourceCatalog: 'src', target: target('dst'), objects });
  const rollbackId = await record([
    { type: 'catalog', fqn: 'dst' },
    { type: 'schema', fqn: 'dst.sales' },
    { type: 'schema', fqn: 'dst.hr' },
  ]);
  await ws.createSchema({ catalog: 'dst', name: 'hr' });
  await record([
    { type: 'table', fqn: 'dst.sales.orders' },
    { type: 'table', fqn: 'dst.hr.people' },
  ]);
  await ws.overwriteQuery(kept, "SELECT 9 AS id, 'z' AS name");
  await makeTable(ws, { catalog: 'dst', schema: 'hr', name: 'people' }, [{ id: 1, name: 'p' }]);
  await record([
    { type: 'view', fqn: 'dst.hr.v_people' },
    { type: 'function', fqn: 'dst.hr.f_up' },
    { type: 'volume', fqn: 'dst.hr.files' },
  ]);
  await ws.createView({
    ref: { catalog: 'dst', schema: 'hr', name: 'v_people' },
    definition: 'SELECT id FROM dst.hr.people',
  });
  await ws.createFunction({
    ref: { catalog: 'dst', schema: 'hr', name: 'f_up' },
    parameters: 's STRING',
    returnType: 'STRING',
    body: 'upper(s)',
  });
  await ws.createVolume({ ref: { catalog: 'dst', schema: 'hr', name: 'files' } });
  // A retried recording step must not overwrite the pre-job state with the job's own work.
  await record([
    { type: 'table', fqn: 'dst.sales.orders' },
    { type: 'schema', fqn: 'dst.hr' },
  ]);
  const log = await getRollbackLog(fx.store.db, rollbackId);
  expect(log!.entries.find((e) => e.fqn === 'dst.sales.orders')).toMatchObject({
    existed: true,
    version: recordedVersion,
  });
  expect(log!.entries.find((e) => e.fqn === 'dst.hr')).toMatchObject({ existed: false });

  const result = await runRollback(rollbackId);

  expect(result).toMatchObject({ status: 'rolled_back', restored: 1, failed: 0, dropped: 5 });
  expect(await rowsOf(ws, kept)).toEqual(before);
  expect(await ws.tableChecksum(kept)).toBe(await ws.tableChecksum(kept, { version: recordedVersion! }));
  expect((await ws.listSchemas('dst')).map((s) => s.name)).not.toContain('hr');
  expect((await ws.listCatalogs()).map((c) => c.name)).toContain('dst'); // pre-existing catalog is never dropped
  expect((await getRollbackLog(fx.store.db, rollbackId))!.status).toBe('rolled_back');

  // Idempotent: running it again changes nothing and succeeds.
  const again = await runRollback(rollbackId);
  expect(again).toMatchObject({ status: 'rolled_back', failed: 0 });
  expect(await rowsOf(ws, kept)).toEqual(before);
});

test('a catalog the job created is dropped last', async () => {
  const { ws } = fx;
  const rollbackId = await recordBeforeChange(fx.deps, {
    jobId: 'clone-rb-2',
    sourceCatalog: 'src',
    target: target('fresh'),
    objects: [
      { type: 'catalog', fqn: 'fresh' },
      { type: 'schema', fqn: 'fresh.s' },
      { type: 'table', fqn: 'fresh.s.t' },
    ],
  });
  await ws.createCatalog({ name: 'fresh' });
  await ws.createSchema({ catalog: 'fresh', name: 's' });
  await makeTable(ws, { catalog: 'fresh', schema: 's', name: 't' }, [{ id: 1, name: 'x' }]);
  const result = await runRollback(rollbackId);
  expect(result.steps.map((s) => `${s.kind}:${s.fqn}`)).toEqual(['drop:fresh.s.t', 'drop:fresh.s', 'drop:fresh']);
  expect((await ws.listCatalogs()).map((c) => c.name)).not.toContain('fresh');
});

test('an unknown rollback log fails the workflow without retrying', async () => {
  const err = await runRollback('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(WorkflowFailedError);
  const activityFailure = (err as WorkflowFailedError).cause as ActivityFailure;
  expect(activityFailure).toBeInstanceOf(ActivityFailure);
  expect(activityFailure.cause).toMatchObject({
    type: 'NotFound',
    nonRetryable: true,
    message: expect.stringMatching(/not found/),
  });
});
