import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { readRunLog } from '../../store/jobs/run-logs';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { openPlatformWorkspace } from '../../workers/open-workspace';
import type { Workspace } from '../../platform/port';
import { testAppDeps } from '../api/deps';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { readCallLog, startWorkerProcess, workerIdentity } from '../helpers/worker-process';
import { catalogContents, seedWideCatalog } from './wide-catalog';

/**
 * Scaled out: two worker processes (the real worker wiring, test/clone/fixtures/worker-main.ts) poll one task
 * queue; the API runs in this process; all share one Temporal dev server, one Postgres store and one local
 * lakehouse folder. PGlite cannot be shared by processes, so this needs DATABASE_URL.
 */
const withPostgres = process.env.DATABASE_URL ? describe : describe.skip;

withPostgres('two worker processes on one task queue (skipped without DATABASE_URL: PGlite is single-process)', () => {
  let h: Harness;
  let root: string;
  let ws: Workspace;
  let app: Express;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    h = await createHarness('scale');
    root = h.newRoot();
    ws = h.open(root);
    await seedWideCatalog(ws, 'prod', { schemas: 3, tables: 6, rows: 10 });
    app = createApp(
      testAppDeps({
        store: h.store,
        temporal: { client: h.env.client, connection: h.env.connection, address: h.env.connection.options.address },
        env: { LAKEWARD_TASK_QUEUE: h.taskQueue, LAKEWARD_WORKSPACE_ROOT: root },
        open: openPlatformWorkspace,
      }),
    );
  }, 120_000);

  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await h?.env.client.workflow
      .getHandle(jobQueueWorkflowId('clone', h.taskQueue))
      .terminate('test over')
      .catch(() => undefined);
    await ws?.close();
    await h?.teardown();
  });

  const callLogs = new Map<ChildProcess, string>();
  /**
   * A worker process on the shared task queue, each finished table copy held back `cloneDelayMs`, writing the
   * time of each platform call to its own call log.
   */
  async function startWorker(cloneDelayMs = 200): Promise<ChildProcess> {
    const callLog = path.join(h.newRoot(), 'calls.log');
    const child = await startWorkerProcess(h, {
      taskQueue: h.taskQueue,
      databaseUrl: h.databaseUrl!,
      cloneDelayMs,
      callLog,
    });
    workers.push(child);
    callLogs.set(child, callLog);
    return child;
  }
  const running = () => workers.filter((w) => w.exitCode === null && w.signalCode === null);

  async function submit(body: Record<string, unknown>): Promise<string> {
    const res = await request(app)
      .post('/api/clone')
      .send({ source_catalog: 'prod', clone_type: 'DEEP', ...body })
      .expect(200);
    return res.body.job_id as string;
  }

  async function ended(jobId: string, timeoutMs = 60_000): Promise<Record<string, unknown>> {
    return eventually(
      async () => {
        const body = (await request(app).get(`/api/clone/${jobId}`).expect(200)).body;
        return body.completed_at ? body : null;
      },
      { what: `job ${jobId} to record its end`, timeoutMs },
    );
  }

  const finishedTables = async (jobId: string) =>
    (await readRunLog(h.store.db, jobId)).filter((r) => r.data?.event === 'table_finished').length;

  /** Worker identity of every table-copy activity in the job's schema workflows (from ActivityTaskStarted). */
  async function tableActivityWorkers(jobId: string): Promise<{ schemaWorkflows: number; identities: string[] }> {
    const parent = await h.env.client.workflow.getHandle(jobId).fetchHistory();
    const children = (parent.events ?? [])
      .map((e) => e.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId)
      .filter((id): id is string => !!id);
    const identities: string[] = [];
    for (const id of children) {
      const events = (await h.env.client.workflow.getHandle(id).fetchHistory()).events ?? [];
      const types = new Map<string, string>();
      for (const e of events) {
        const scheduled = e.activityTaskScheduledEventAttributes;
        if (scheduled) types.set(String(e.eventId), scheduled.activityType?.name ?? '');
      }
      for (const e of events) {
        const started = e.activityTaskStartedEventAttributes;
        if (started && types.get(String(started.scheduledEventId)) === 'cloneTables')
          identities.push(started.identity ?? '');
      }
    }
    return { schemaWorkflows: children.length, identities };
  }

  test('a deep clone spreads its table activities over both workers, across its schema workflows', async () => {
    const [a, b] = await Promise.all([startWorker(), startWorker()]);
    const jobId = await submit({ destination_catalog: 'spread', parallel_tables: 4, max_workers: 3 });
    const done = await ended(jobId);
    expect(done).toMatchObject({ status: 'completed', result: expect.objectContaining({ tables_cloned: 18 }) });

    const { schemaWorkflows, identities } = await tableActivityWorkers(jobId);
    expect(schemaWorkflows).toBe(3);
    expect(identities.length).toBeGreaterThanOrEqual(6);
    const perWorker = Object.fromEntries([a, b].map((w) => [workerIdentity(w), 0]));
    for (const id of identities) perWorker[id] = (perWorker[id] ?? 0) + 1;
    // Every activity ran on one of the two processes, and each process ran some of them.
    expect(Object.keys(perWorker).sort()).toEqual([workerIdentity(a), workerIdentity(b)].sort());
    for (const w of [a, b]) expect(perWorker[workerIdentity(w)]).toBeGreaterThan(0);

    expect(await catalogContents(ws, 'spread')).toEqual(await catalogContents(ws, 'prod'));
  }, 90_000);

  test('one worker SIGKILLed mid-clone: the other finishes the job and the destination equals the source', async () => {
    const [victim] = running();
    expect(running()).toHaveLength(2);
    const jobId = await submit({ destination_catalog: 'survived', parallel_tables: 2, max_workers: 3 });
    await eventually(async () => (await finishedTables(jobId)) >= 3, { what: `3 tables of ${jobId} finished` });
    victim.kill('SIGKILL');
    await new Promise((resolve) =>
      victim.exitCode === null && victim.signalCode === null ? victim.once('exit', resolve) : resolve(null),
    );
    expect(await finishedTables(jobId)).toBeLessThan(18);

    const done = await ended(jobId, 90_000);
    expect(done).toMatchObject({
      status: 'completed',
      result: expect.objectContaining({ tables_cloned: 18, tables_failed: 0 }),
    });
    const source = await catalogContents(ws, 'prod');
    expect(Object.keys(source)).toHaveLength(18);
    expect(await catalogContents(ws, 'survived')).toEqual(source);
  }, 120_000);

  test('max_rps 2 holds for the job as a whole on two workers: about 2 platform calls a second in total', async () => {
    // The survivor of the SIGKILL test and a new worker.
    const pair = running();
    if (pair.length < 2) pair.push(await startWorker());
    const [wa, wb] = pair;
    const since = Date.now();
    const jobId = await submit({ destination_catalog: 'slow', parallel_tables: 2, max_workers: 3, max_rps: 2 });

    // Wait until both workers have issued calls for this job and at least 6 s of calls are on record.
    const callsOf = (w: ChildProcess) => readCallLog(callLogs.get(w)!).filter((c) => c.at >= since);
    const calls = await eventually(
      () => {
        const [a, b] = [callsOf(wa), callsOf(wb)];
        const all = [...a, ...b].map((c) => c.at).sort((x, y) => x - y);
        return a.length >= 3 && b.length >= 3 && all[all.length - 1] - all[0] >= 6_000 ? { a, b, all } : null;
      },
      { what: 'platform calls of both workers spanning 6 s', timeoutMs: 40_000 },
    );
    expect((await request(app).delete(`/api/clone/${jobId}`).expect(200)).body.status).toMatch(/cancell/);
    await ended(jobId);

    // The densest one-second window of calls, named by worker and method (printed if the check fails).
    const named = [...calls.a.map((c) => ({ ...c, worker: 'a' })), ...calls.b.map((c) => ({ ...c, worker: 'b' }))].sort(
      (x, y) => x.at - y.at,
    );
    const densest = named
      .map((c) => named.filter((d) => d.at >= c.at && d.at < c.at + 1000))
      .reduce((x, y) => (y.length > x.length ? y : x));
    // Two slots a second, 500 ms apart; timer jitter can bring a third just inside a window, never more.
    // Two per-process buckets would give each worker 2/s of its own: 4 in a second.
    expect(densest.length <= 3 ? 'at most 3 calls in any second' : densest).toBe('at most 3 calls in any second');
    const { all } = calls;
    const perSecond = (all.length - 1) / ((all[all.length - 1] - all[0]) / 1000);
    expect(perSecond).toBeLessThanOrEqual(2.2);
    expect(perSecond).toBeGreaterThan(1.5); // the job kept its full rate: the limiter spaces, it does not stall
  }, 90_000);
});
