import type { ChildProcess } from 'node:child_process';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { Workspace } from '../../platform/port';
import { eventually } from '../helpers/harness';
import { startWorkerProcess } from '../helpers/worker-process';
import { realStack, type RealStack } from '../jobs/real-stack';

/**
 * A stream outlives a worker process killed with SIGKILL mid-stream: the real worker wiring runs in its own
 * process (test/helpers/worker-process.ts), the source changes while no worker runs, and a new worker process
 * plus a new API app carry on with the same stream id, losing and duplicating nothing. Worker processes share the
 * store through Postgres (PGlite is single-process), so this needs DATABASE_URL. Its destination catalog differs
 * from streams.test.ts's: the stream id (the workflow id) derives from it, and test files share one Temporal server.
 */
const withPostgres = process.env.DATABASE_URL ? describe : describe.skip;

withPostgres('a stream whose worker process is killed (skipped without DATABASE_URL: PGlite is single-process)', () => {
  let stack: RealStack;
  let ws: Workspace;
  const items = { catalog: 'prod', schema: 'cdc', name: 'items' };
  const copy = { catalog: 'prod_replica', schema: 'cdc', name: 'items' };
  const workers: ChildProcess[] = [];
  let streamId: string | undefined;

  beforeAll(async () => {
    stack = await realStack('stream-kill');
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
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    if (streamId)
      await stack?.h.env.client.workflow
        .getHandle(streamId)
        .terminate('test over')
        .catch(() => undefined);
    await ws?.close?.();
    await stack?.teardown();
  });

  async function startWorker(): Promise<ChildProcess> {
    const child = await startWorkerProcess(stack.h, {
      taskQueue: stack.h.taskQueue,
      databaseUrl: stack.h.databaseUrl!,
    });
    workers.push(child);
    return child;
  }

  const rows = async (ref: typeof items) =>
    (await ws.query(`SELECT id, name, qty FROM ${ref.catalog}.${ref.schema}.${ref.name} ORDER BY id`)).rows;

  /** Row-by-row equality of source and destination, ordered by key: a lost or a duplicated row shows. */
  const inStep = async (what: string) =>
    eventually(
      async () => {
        const [a, b] = await Promise.all([rows(items), rows(copy).catch(() => null)]);
        return JSON.stringify(a) === JSON.stringify(b) ? a : null;
      },
      { timeoutMs: 120_000, what },
    );

  async function stream(a: ReturnType<typeof createApp>) {
    const list = (await request(a).get('/api/continuous-sync/streams?refresh=true').expect(200)).body;
    return list.find((s: { stream_id: string }) => s.stream_id === streamId);
  }

  test('SIGKILL of the worker process mid-stream, changes while it is dead, a new worker and a new API: same stream, same rows', async () => {
    let a = createApp(stack.appDeps());
    const started = await request(a)
      .post('/api/continuous-sync/start')
      .send({ source_catalog: 'prod', destination_catalog: 'prod_replica', tables: ['cdc.items'], trigger_ms: 200 })
      .expect(200);
    streamId = started.body.stream_id as string;
    const runId = started.body.run_id as string;

    const first = await startWorker();
    await inStep('the initial copy');
    await ws.insertRows(items, [{ id: 4, name: 'spring', qty: 40 }]);
    await ws.updateWhere(items, { qty: '11' }, 'id = 1');
    await inStep('changes made while the first worker runs');
    // Mid-stream: the stream cycles every 200 ms; kill once more cycles have run.
    const cyclesBefore = (await stream(a)).cycles as number;
    await eventually(async () => ((await stream(a)).cycles >= cyclesBefore + 2 ? true : null), {
      timeoutMs: 60_000,
      what: 'two more cycles before the kill',
    });
    first.kill('SIGKILL');
    await new Promise<void>((resolve) =>
      first.exitCode !== null || first.signalCode ? resolve() : first.once('exit', () => resolve()),
    );
    expect(first.signalCode).toBe('SIGKILL');

    // The worker is dead: inserts, updates and deletes wait in the source's change feed.
    const deadCycles = (await stream(a)).cycles as number;
    await ws.insertRows(items, [
      { id: 5, name: 'pin', qty: 50 },
      { id: 6, name: 'clip', qty: 60 },
    ]);
    await ws.updateWhere(items, { name: "'bolt-m6'" }, 'id = 1');
    await ws.deleteWhere(items, 'id = 3');
    await ws.updateWhere(items, { qty: '21' }, 'id = 2');
    await ws.deleteWhere(items, 'id = 6');
    const dead = await stream(a);
    expect(dead.cycles).toBe(deadCycles);
    expect(dead.lag).toBeGreaterThan(0);

    // A new API (fresh dependencies, as after a restart) and a new worker process.
    a = createApp(stack.appDeps());
    await startWorker();
    const after = await inStep('the changes made while no worker ran');
    expect(after).toEqual([
      { id: 1, name: 'bolt-m6', qty: 11 },
      { id: 2, name: 'nut', qty: 21 },
      { id: 4, name: 'spring', qty: 40 },
      { id: 5, name: 'pin', qty: 50 },
    ]);
    const version = (await ws.describeTable(items)).version!;
    const s = await eventually(
      async () => {
        const v = await stream(a);
        return v.applied_versions['cdc.items'] === version && v.cycles > deadCycles ? v : null;
      },
      { timeoutMs: 60_000, what: 'the new worker to record the applied version' },
    );
    expect(s).toMatchObject({ stream_id: streamId, run_id: runId, status: 'running', lag: 0, error: null });
    // One stream: the API lists it once, and Temporal has one running execution of that workflow id.
    const list = (await request(a).get('/api/continuous-sync/streams').expect(200)).body as { stream_id: string }[];
    expect(list.filter((x) => x.stream_id === streamId)).toHaveLength(1);
    const d = await stack.h.env.client.workflow.getHandle(streamId).describe();
    expect(d).toMatchObject({ runId, status: { name: 'RUNNING' } });

    await request(a).post(`/api/continuous-sync/streams/${streamId}/stop`).expect(200);
  }, 300_000);
});
