import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import request from 'supertest';
import { createApp } from '../../api/app';
import { ensureDispatcher, wakeDispatcherOnCommit } from '../../api/automation/dispatcher';
import { automationServices } from '../../api/automation/worker-services';
import type { Config } from '../../config/load';
import { WORKER_TUNING } from '../../workers/worker-tuning';
import { dispatcherWorkflowId } from '../../workflows/automation/definitions';
import { eventually } from '../helpers/harness';
import { realStack, type RealStack } from '../jobs/real-stack';

/** A local webhook receiver: records every request and answers with the next scripted status (then 200). */
export interface Receiver {
  url: string;
  requests: { path: string; headers: IncomingHttpHeaders; body: string }[];
  /** Statuses to answer with, in order, for requests to `path`. */
  script(path: string, statuses: number[]): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const scripts = new Map<string, number[]>();
  const requests: Receiver['requests'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({ path, headers: req.headers, body });
      const status = scripts.get(path)?.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (path, statuses) => scripts.set(path, [...statuses]),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/**
 * The real path behind the API (local lakehouse with the mini catalog `prod`), plus a worker that runs for the
 * whole file with the playbook services wired as workers/stack.ts wires them, and the event dispatcher.
 */
export interface AutomationStack extends RealStack {
  app: ReturnType<typeof createApp>;
  /** The configuration the API and the worker share (a test may change it for a while). */
  workerConfig: Config;
  api: () => ReturnType<typeof request>;
  /** Stops the worker and starts a new one (a restart). */
  restartWorker(): Promise<void>;
  stop(): Promise<void>;
}

export async function automationStack(
  name: string,
  configure?: (config: Config) => void,
  opts: {
    /** Another workflow bundle than the current code's (the history recorder runs earlier workflow code). */
    workflowBundle?: WorkflowBundleWithSourceMap;
    /** false: no event dispatcher (its 5 s poll would tick through every skipped hour on the time-skipping server). */
    dispatcher?: boolean;
  } = {},
): Promise<AutomationStack> {
  const { workflowBundle, dispatcher = true } = opts;
  const stack = await realStack(name);
  const { h } = stack;
  const appDeps = stack.appDeps();
  configure?.(appDeps.config);
  const app = createApp(appDeps);
  let running: { worker: Worker; done: Promise<void> } | undefined;
  const start = async () => {
    const worker = await Worker.create({
      connection: h.env.nativeConnection,
      taskQueue: h.taskQueue,
      ...WORKER_TUNING,
      workflowBundle: workflowBundle ?? h.bundle,
      activities: h.activities({
        deps: { config: appDeps.config, workspaces: appDeps.workspaces, automation: automationServices(appDeps) },
      }),
    });
    running = { worker, done: worker.run() };
  };
  const stopWorker = async () => {
    if (!running) return;
    running.worker.shutdown();
    await running.done.catch(() => undefined);
    running = undefined;
  };
  await start();
  const unwake = dispatcher ? wakeDispatcherOnCommit(h.env.client, h.taskQueue) : () => undefined;
  if (dispatcher) await ensureDispatcher(h.env.client, h.taskQueue);
  return {
    ...stack,
    app,
    workerConfig: appDeps.config,
    api: () => request(app),
    async restartWorker() {
      await stopWorker();
      await start();
    },
    async stop() {
      unwake();
      await h.env.client.workflow
        .getHandle(dispatcherWorkflowId(h.taskQueue))
        .terminate('test over')
        .catch(() => undefined);
      await stopWorker();
      await stack.teardown();
    },
  };
}

/** The playbook's history once `n` executions have ended. */
export async function historyOf(s: AutomationStack, playbookId: string, n: number, timeoutMs = 30_000) {
  return eventually(
    async () => {
      const res = await s.api().get(`/api/playbooks/${playbookId}/history`).expect(200);
      const done = res.body.executions.filter((e: { completed_at: string | null }) => e.completed_at);
      return done.length >= n ? res.body.executions : null;
    },
    { what: `${n} ended executions of playbook ${playbookId}`, timeoutMs },
  );
}

/** A Standard Webhooks secret (whsec_ + base64 of 24 random bytes). */
export function newSecret(): string {
  return `whsec_${Buffer.from(Array.from({ length: 24 }, (_, i) => (i * 37 + 11) % 256)).toString('base64')}`;
}
