import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createWarehouseActivities } from '../../activities/warehouses';
import { poolFor } from '../../activities/warehouses/engine';
import { applyEdit } from '../../activities/warehouses/logic/spec';
import type { Store } from '../../store/db';
import { getWarehouse, insertWarehouse, listWarehouseEvents } from '../../store/warehouses/repo';
import { warehouseCommandSignal, warehouseWorkflowId } from '../../workflows/warehouses/definitions';
import { executableSpec } from '../../workers/temporal-binary';
import { createTestStore } from '../helpers/db';
import { eventually } from '../helpers/eventually';
import { uniqueTaskQueue } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let store: Store;
beforeAll(async () => {
  env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: executableSpec('temporal-test-server') },
  });
  store = await createTestStore();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
  await store?.close();
});

const events = async (id: string) => (await listWarehouseEvents(store.db, id)).map((e) => e.eventType);

test('auto-stop fires after the idle minutes, never while a query runs', async () => {
  const id = 'autostop0000001';
  const { spec } = applyEdit(null, { name: 'idle-test', cluster_size: '2X-Small', auto_stop_mins: 10 });
  await insertWarehouse(store.db, { id, location: 'local', spec, state: 'STOPPED', creatorName: null });
  const taskQueue = uniqueTaskQueue('autostop');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../../workflows/warehouses/warehouse-workflow'),
    activities: createWarehouseActivities({ db: store.db }),
  });
  await worker.runUntil(async () => {
    await env.client.workflow.signalWithStart('warehouseWorkflow', {
      workflowId: warehouseWorkflowId(id),
      taskQueue,
      args: [{ warehouseId: id }],
      signal: warehouseCommandSignal,
      signalArgs: ['start'],
    });
    await eventually(async () => (await getWarehouse(store.db, id))?.state === 'RUNNING', { what: 'RUNNING' });

    // a query holds a cluster across the whole auto-stop period (and more): the warehouse stays up
    let release!: () => void;
    const query = poolFor((await getWarehouse(store.db, id))!).run(() => new Promise<void>((r) => (release = r)));
    await env.sleep('25 minutes');
    expect((await getWarehouse(store.db, id))?.state).toBe('RUNNING');
    expect(await events(id)).toEqual(['STARTING', 'RUNNING']);

    // once it is idle, the timer stops it
    release();
    await query;
    await env.sleep('12 minutes');
    await eventually(async () => (await getWarehouse(store.db, id))?.state === 'STOPPED', { what: 'auto-stopped' });
    expect(await events(id)).toEqual(['STARTING', 'RUNNING', 'STOPPING', 'STOPPED']);
  });
}, 120_000);
