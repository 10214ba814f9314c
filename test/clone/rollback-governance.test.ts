import { createRollbackActivities, recordBeforeChange } from '../../activities/clone/rollback/activities';
import type { Workspace } from '../../platform/port';
import type { Securable } from '../../platform/types';
import { rollbackLogsForJob } from '../../store/clone/rollback-logs';
import type { CloneSummary } from '../../workflows/clone/definitions';
import { rollbackWorkflowId, type RollbackResult } from '../../workflows/clone/rollback-definitions';
import { createHarness, type Harness } from '../helpers/harness';
import { seedSafetyCatalogs } from './fixtures/safety-seed';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('rb-gov');
});
afterAll(async () => h?.teardown());

const devOrders: Securable = { type: 'TABLE', catalog: 'dev', schema: 'sales', name: 'orders' };
const prodOrders: Securable = { type: 'TABLE', catalog: 'prod', schema: 'sales', name: 'orders' };

async function governance(ws: Workspace, s: Securable) {
  return { grants: await ws.getGrants(s), tags: await ws.getTags(s) };
}

test('rolling back a clone over an existing table brings back its own grants and tags and removes the clone’s', async () => {
  const root = h.newRoot();
  const ws = h.open(root);
  await seedSafetyCatalogs(ws);
  await ws.grant(devOrders, 'dev_readers', ['SELECT']);
  await ws.grant(devOrders, 'shared', ['SELECT']);
  await ws.setTags(devOrders, { owner_team: 'dev', sandbox: 'yes' });
  await ws.grant(prodOrders, 'prod_writers', ['MODIFY', 'SELECT']);
  await ws.grant(prodOrders, 'shared', ['ALL PRIVILEGES']);
  await ws.setTags(prodOrders, { owner_team: 'prod', domain: 'sales' });
  const before = await governance(ws, devOrders);

  const input = h.jobInput(root, { copy_permissions: true, copy_tags: true, enable_rollback: true });
  const tq = h.newTaskQueue();
  await h.withWorker(
    async () => {
      const summary = (await h.run(input, tq)) as CloneSummary;
      expect(summary.status).toBe('completed');
      const cloned = await governance(ws, devOrders);
      expect(cloned.tags).toEqual({ owner_team: 'prod', domain: 'sales' });
      expect(cloned.grants).toEqual(
        expect.arrayContaining([
          { principal: 'prod_writers', privileges: ['MODIFY', 'SELECT'] },
          { principal: 'shared', privileges: ['ALL PRIVILEGES', 'SELECT'] },
        ]),
      );

      const [log] = await rollbackLogsForJob(h.store.db, input.jobId);
      const result = (await h.env.client.workflow.execute('rollbackWorkflow', {
        taskQueue: tq,
        workflowId: rollbackWorkflowId(log.id),
        args: [{ rollbackId: log.id }],
      })) as RollbackResult;
      expect(result).toMatchObject({ status: 'rolled_back', failed: 0 });
      expect(result.steps).toContainEqual(
        expect.objectContaining({ kind: 'restore', fqn: 'dev.sales.orders', outcome: 'restored' }),
      );
    },
    { taskQueue: tq },
  );

  expect(await governance(ws, devOrders)).toEqual(before);
  expect(before).toEqual({
    grants: [
      { principal: 'dev_readers', privileges: ['SELECT'] },
      { principal: 'shared', privileges: ['SELECT'] },
    ],
    tags: { owner_team: 'dev', sandbox: 'yes' },
  });
});

test('the grants and tags are recorded before the first change; a retried recording keeps the first state', async () => {
  const root = h.newRoot();
  const ws = h.open(root);
  await seedSafetyCatalogs(ws);
  await ws.grant(devOrders, 'dev_readers', ['SELECT']);
  await ws.setTags(devOrders, { owner_team: 'dev' });
  const deps = { db: h.store.db, resolveWorkspace: async () => ws };
  const target = { label: 'local', workspace: { kind: 'local' as const, root }, destinationCatalog: 'dev' };
  const record = () =>
    recordBeforeChange(deps, {
      jobId: 'clone-rb-gov-retry',
      sourceCatalog: 'prod',
      target,
      objects: [{ type: 'table', fqn: 'dev.sales.orders' }],
    });

  const rollbackId = await record();
  await ws.revoke(devOrders, 'dev_readers', ['SELECT']);
  await ws.grant(devOrders, 'intruder', ['ALL PRIVILEGES']);
  await ws.unsetTags(devOrders, ['owner_team']);
  await ws.setTags(devOrders, { extra: '1' });
  await record(); // a retried step observes the changed table: the first record stands

  const acts = createRollbackActivities(deps);
  const plan = await acts.loadRollbackPlan(rollbackId);
  for (const step of plan.steps) await acts.undoRollbackStep({ workspace: plan.workspace, step });
  for (const step of plan.steps) await acts.undoRollbackStep({ workspace: plan.workspace, step }); // idempotent

  expect(await governance(ws, devOrders)).toEqual({
    grants: [{ principal: 'dev_readers', privileges: ['SELECT'] }],
    tags: { owner_team: 'dev' },
  });
});
