import request from 'supertest';
import { createApp } from '../../api/app';
import type { Workspace } from '../../platform/port';
import { createStream, getStream } from '../../store/streams/repo';
import { STREAM_WORKFLOW_TYPE, type StreamInput } from '../../workflows/streams/definitions';
import { eventually } from '../helpers/harness';
import { realStack, type RealStack } from '../jobs/real-stack';

/**
 * Continuous sync streams through the API and a real worker on the local lakehouse: a CDF table's inserts,
 * updates and deletes reach the destination within two of the stream's cycles; the stream survives a worker going away and an API restart; restart
 * gives a new run id with the same stream id; stop stops it.
 */
let stack: RealStack;
let ws: Workspace;
const items = { catalog: 'prod', schema: 'cdc', name: 'items' };
const copy = { catalog: 'prod_live', schema: 'cdc', name: 'items' };
let streamId: string | undefined;

beforeAll(async () => {
  stack = await realStack('streams');
  ws = stack.h.open(stack.root);
  await ws.createSchema({ catalog: 'prod', name: 'cdc', ifNotExists: true });
  await ws.createTable({
    ref: items,
    columns: [
      { name: 'id', type: 'bigint', nullable: false },
      { name: 'name', type: 'string' },
      { name: 'qty', type: 'int' },
    ],
    properties: { 'delta.enableChangeDataFeed': 'true' },
  });
  await ws.insertRows(items, [
    { id: 1, name: 'bolt', qty: 10 },
    { id: 2, name: 'nut', qty: 20 },
    { id: 3, name: 'washer', qty: 30 },
  ]);
}, 120_000);
afterAll(async () => {
  if (streamId)
    await stack?.h.env.client.workflow
      .getHandle(streamId)
      .terminate('test over')
      .catch(() => undefined);
  await stack?.teardown();
});

const rows = async (ref: typeof items) =>
  (await ws.query(`SELECT id, name, qty FROM ${ref.catalog}.${ref.schema}.${ref.name} ORDER BY id`)).rows;

/** Row-by-row equality of source and destination (order by key; a duplicate or a lost row shows). */
const inStep = async (what: string) =>
  eventually(
    async () => {
      const [a, b] = await Promise.all([rows(items), rows(copy).catch(() => null)]);
      return JSON.stringify(a) === JSON.stringify(b) ? a : null;
    },
    { timeoutMs: 60_000, what },
  );

async function stream(a: ReturnType<typeof createApp>, refresh = false) {
  const list = (await request(a).get(`/api/continuous-sync/streams?refresh=${refresh}`).expect(200)).body;
  return list.find((s: { stream_id: string }) => s.stream_id === streamId);
}

test('tables without change data feed, unknown tables and bad input are refused naming them', async () => {
  const a = createApp(stack.appDeps());
  const noCdf = await request(a)
    .post('/api/continuous-sync/start')
    .send({ source_catalog: 'prod', destination_catalog: 'prod_live', tables: ['cdc.items', 'sales.orders'] })
    .expect(400);
  expect(noCdf.body.error.message).toContain('sales.orders');
  expect(noCdf.body.error.message).not.toContain('cdc.items');
  expect(noCdf.body.error.details).toEqual([
    { path: 'body.tables.1', message: expect.stringContaining('sales.orders') },
  ]);
  const missing = await request(a)
    .post('/api/continuous-sync/start')
    .send({ source_catalog: 'prod', destination_catalog: 'prod_live', tables: ['cdc.ghost'] })
    .expect(404);
  expect(missing.body.error.details[0].path).toBe('body.tables.0');
  await request(a)
    .post('/api/continuous-sync/start')
    .send({ source_catalog: 'prod', destination_catalog: 'prod', tables: ['cdc.items'] })
    .expect(400);
  await request(a)
    .post('/api/continuous-sync/start')
    .send({ source_catalog: 'prod', destination_catalog: 'x', tables: ['items'] })
    .expect(400);
  await request(a).post('/api/continuous-sync/streams/sync-0000000000/stop').expect(404);
});

test('a stream applies inserts, updates and deletes, survives a lost worker and an API restart, restarts and stops', async () => {
  let a = createApp(stack.appDeps());
  const started = await request(a)
    .post('/api/continuous-sync/start')
    .send({ source_catalog: 'prod', destination_catalog: 'prod_live', tables: ['cdc.items'], trigger_ms: 300 })
    .expect(200);
  streamId = started.body.stream_id;
  expect(started.body).toMatchObject({ stream_id: expect.stringMatching(/^sync-[0-9a-f]{10}$/), status: 'starting' });
  const firstRun = started.body.run_id as string;
  expect((await stream(a)).status).toBe('starting');

  await stack.h.withWorker(async () => {
    // starting → running after one cycle; the first cycle copies the table.
    await eventually(async () => ((await stream(a)).status === 'running' ? true : null), {
      timeoutMs: 60_000,
      what: 'the stream to run a cycle',
    });
    await inStep('the initial copy');
    // The same stream cannot be started twice.
    await request(a)
      .post('/api/continuous-sync/start')
      .send({ source_catalog: 'prod', destination_catalog: 'prod_live', tables: ['cdc.items'], trigger_ms: 300 })
      .expect(409);
    // Each change is applied within two cycles, counted by the stream's own cycle counter: cycle c+1 may have
    // read the source before the commit, cycle c+2 starts after it. A cycle records its applied versions before
    // it counts itself, so once the counter reaches c+2 the applied version must cover the change.
    const withinTwoCycles = async (what: string, change: () => Promise<unknown>) => {
      const c = (await stream(a)).cycles as number;
      await change();
      const version = (await ws.describeTable(items)).version!;
      await eventually(async () => ((await stream(a)).cycles >= c + 2 ? true : null), {
        timeoutMs: 60_000,
        what: `cycle ${c + 2} after the ${what}`,
      });
      expect((await stream(a)).applied_versions['cdc.items']).toBeGreaterThanOrEqual(version);
      expect(await rows(copy)).toEqual(await rows(items));
    };
    await withinTwoCycles('insert', () => ws.insertRows(items, [{ id: 4, name: 'spring', qty: 40 }]));
    await withinTwoCycles('update', () => ws.updateWhere(items, { qty: '11' }, 'id = 1'));
    await withinTwoCycles('delete', () => ws.deleteWhere(items, 'id = 2'));
    const synced = await rows(copy);
    expect(synced).toEqual([
      { id: 1, name: 'bolt', qty: 11 },
      { id: 3, name: 'washer', qty: 30 },
      { id: 4, name: 'spring', qty: 40 },
    ]);
  });

  // No worker now: changes wait in the source's change feed.
  await ws.insertRows(items, [
    { id: 5, name: 'pin', qty: 50 },
    { id: 6, name: 'clip', qty: 60 },
  ]);
  await ws.updateWhere(items, { name: "'bolt-m6'" }, 'id = 1');
  await ws.deleteWhere(items, 'id = 3');
  // A new API (fresh dependencies, as after a restart) and a new worker: the stream carries on.
  a = createApp(stack.appDeps());
  await stack.h.withWorker(async () => {
    const after = await inStep('the changes made while no worker ran');
    expect(after).toEqual([
      { id: 1, name: 'bolt-m6', qty: 11 },
      { id: 4, name: 'spring', qty: 40 },
      { id: 5, name: 'pin', qty: 50 },
      { id: 6, name: 'clip', qty: 60 },
    ]);
    const s = await stream(a, true);
    expect(s).toMatchObject({ stream_id: streamId, run_id: firstRun, status: 'running', lag: 0, error: null });
    expect(s.last_cycle_at).not.toBeNull();
    const version = (await ws.describeTable(items)).version!;
    expect(s.applied_versions['cdc.items']).toBe(version);

    // restart: a new run id, the same stream id, resuming from the applied version.
    const restarted = await request(a).post(`/api/continuous-sync/streams/${streamId}/restart`).expect(200);
    expect(restarted.body).toMatchObject({ stream_id: streamId, previous_run_id: firstRun, status: 'running' });
    expect(restarted.body.run_id).not.toBe(firstRun);
    await ws.insertRows(items, [{ id: 7, name: 'rivet', qty: 70 }]);
    await inStep('a change after the restart');
    expect((await stream(a, true)).run_id).toBe(restarted.body.run_id);

    const stopped = await request(a).post(`/api/continuous-sync/streams/${streamId}/stop`).expect(200);
    expect(stopped.body).toEqual({ stream_id: streamId, status: 'stopped' });
  });
  expect((await stream(a, true)).status).toBe('stopped');
  // Stopped means stopped: a later source change stays out of the destination.
  await ws.insertRows(items, [{ id: 8, name: 'cap', qty: 80 }]);
  const s = await stream(a, true);
  expect(s.lag).toBeGreaterThan(0);
}, 240_000);

test('a stream run continues as new after its cycles and the next run resumes from the applied versions', async () => {
  const parts = { catalog: 'prod', schema: 'cdc', name: 'parts' };
  await ws.createTable({
    ref: parts,
    columns: [
      { name: 'part_id', type: 'bigint', nullable: false },
      { name: 'label', type: 'string' },
    ],
    properties: { 'delta.enableChangeDataFeed': 'true' },
  });
  await ws.insertRows(parts, [{ part_id: 1, label: 'a' }]);
  const id = 'sync-00000000aa';
  await createStream(stack.h.store.db, {
    streamId: id,
    sourceCatalog: 'prod',
    destinationCatalog: 'prod_can',
    tables: ['cdc.parts'],
    triggerMs: 100,
    status: 'starting',
  });
  const input: StreamInput = {
    streamId: id,
    workspace: { kind: 'local', root: stack.root },
    sourceCatalog: 'prod',
    destinationCatalog: 'prod_can',
    tables: ['cdc.parts'],
    keys: { 'cdc.parts': ['part_id'] },
    triggerMs: 100,
    cyclesPerRun: 2,
  };
  const handle = await stack.h.env.client.workflow.start(STREAM_WORKFLOW_TYPE, {
    workflowId: id,
    taskQueue: stack.h.taskQueue,
    args: [input],
  });
  const partsRows = async (catalog: string) =>
    (await ws.query(`SELECT part_id, label FROM ${catalog}.cdc.parts ORDER BY part_id`)).rows;
  try {
    await stack.h.withWorker(async () => {
      await eventually(async () => ((await handle.describe()).runId !== handle.firstExecutionRunId ? true : null), {
        timeoutMs: 60_000,
        what: 'the run to continue as new',
      });
      await ws.insertRows(parts, [{ part_id: 2, label: 'b' }]);
      await ws.updateWhere(parts, { label: "'a2'" }, 'part_id = 1');
      await eventually(
        async () => {
          const [a, b] = await Promise.all([partsRows('prod'), partsRows('prod_can').catch(() => null)]);
          return JSON.stringify(a) === JSON.stringify(b) ? true : null;
        },
        { timeoutMs: 60_000, what: 'changes after continue-as-new' },
      );
    });
    const first = await stack.h.env.client.workflow.getHandle(id, handle.firstExecutionRunId).fetchHistory();
    expect(first.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes).toBeTruthy();
    expect((await getStream(stack.h.store.db, id))!.runId).toBe(handle.firstExecutionRunId);
  } finally {
    await handle.terminate('test over').catch(() => undefined);
  }
}, 180_000);
