import type { ChildProcess } from 'node:child_process';
import request from 'supertest';
import { createApp } from '../../api/app';
import { recordEvent } from '../../store/automation/events';
import { listExecutions } from '../../store/automation/repo';
import { dispatcherWorkflowId } from '../../workflows/automation/definitions';
import { eventually } from '../helpers/harness';
import { startWorkerProcess } from '../helpers/worker-process';
import { realStack, type RealStack } from '../jobs/real-stack';
import { testAppDeps } from '../api/deps';
import { newSecret, startReceiver, type Receiver } from './stack';

/**
 * A worker process SIGKILLed while the dispatcher is starting executions: a new worker process carries on, and every
 * event still has exactly one execution (ids `playbook-<id>-<event_id>` under REJECT_DUPLICATE) and one webhook-id.
 * Worker processes share the store through Postgres (PGlite is single-process), so this needs DATABASE_URL.
 */
const withPostgres = process.env.DATABASE_URL ? describe : describe.skip;

withPostgres('a worker killed during dispatch (skipped without DATABASE_URL: PGlite is single-process)', () => {
  let stack: RealStack;
  let rx: Receiver;
  const workers: ChildProcess[] = [];
  const EVENTS = 30;

  beforeAll(async () => {
    stack = await realStack('automation-kill');
    rx = await startReceiver();
  }, 120_000);
  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await stack?.h.env.client.workflow
      .getHandle(dispatcherWorkflowId(stack.h.taskQueue))
      .terminate('test over')
      .catch(() => undefined);
    await rx?.close();
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

  test('every event gets exactly one execution and one webhook-id', async () => {
    // The API seals the webhook secret with the same key the worker process opens it with (one data folder).
    const app = createApp(
      testAppDeps({
        store: stack.h.store,
        temporal: { client: stack.h.env.client, connection: stack.h.env.connection, address: 'test' },
        env: { LAKEWARD_TASK_QUEUE: stack.h.taskQueue, LAKEWARD_DATA_DIR: stack.h.config.data_dir },
      }),
    );
    const created = await request(app)
      .post('/api/playbooks')
      .send({
        name: 'kill',
        trigger_type: 'job_failed',
        actions: [{ type: 'webhook', params: { url: `${rx.url}/kill`, secret: newSecret() } }],
        max_executions_per_hour: 1000,
      })
      .expect(201);
    const id = created.body.playbook_id as string;
    const db = stack.h.store.db;
    for (let i = 0; i < EVENTS; i++)
      await recordEvent(db, {
        type: 'job.failed',
        jobId: `k-${i}`,
        message: `k-${i} failed`,
        data: { job_type: 'clone' },
      });

    const first = await startWorker();
    await eventually(async () => (await listExecutions(db, id, 1000)).length > 0, {
      what: 'the first execution',
      timeoutMs: 60_000,
    });
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const startedBeforeKill = (await listExecutions(db, id, 1000)).length;

    await startWorker();
    const runs = await eventually(
      async () => {
        const rows = await listExecutions(db, id, 1000);
        return rows.length === EVENTS && rows.every((r) => r.completedAt) ? rows : null;
      },
      { what: `${EVENTS} ended executions`, timeoutMs: 120_000 },
    );
    expect(startedBeforeKill).toBeLessThan(EVENTS);
    expect(new Set(runs.map((r) => r.eventId)).size).toBe(EVENTS);
    expect(runs.filter((r) => r.status !== 'succeeded').map((r) => [r.status, r.actions[0]?.error])).toEqual([]);
    const started = await eventually(
      async () => {
        let n = 0;
        for await (const _ of stack.h.env.client.workflow.list({ query: `WorkflowId STARTS_WITH "playbook-${id}-"` }))
          n++;
        return n >= EVENTS ? n : null;
      },
      { what: 'the executions in Temporal visibility' },
    );
    expect(started).toBe(EVENTS);
    // A delivery cut off by the kill may be repeated (at least once), always with its event's one webhook-id.
    const byEvent = new Map<string, Set<string>>();
    for (const r of rx.requests.filter((q) => q.path === '/kill')) {
      const jobId = (JSON.parse(r.body) as { data: { job_id: string } }).data.job_id;
      byEvent.set(jobId, (byEvent.get(jobId) ?? new Set()).add(r.headers['webhook-id'] as string));
    }
    expect(byEvent.size).toBe(EVENTS);
    expect([...byEvent.values()].every((ids) => ids.size === 1)).toBe(true);
  }, 240_000);
});
