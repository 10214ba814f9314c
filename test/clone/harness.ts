import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createCloneActivities, type CloneHooks } from '../../activities/clone';
import { cachedWorkspaces } from '../../activities/clone/workspace-cache';
import { openWorkspace } from '../../platform';
import type { Workspace } from '../../platform/port';
import { applyCloneDefaults, type CloneRequestInput } from '../../schemas/clone';
import type { Store } from '../../store/db';
import { readRunLog } from '../../store/jobs/run-logs';
import type { CloneJobInput, CloneSummary, WorkspaceRef } from '../../workflows/clone/definitions';
import { cloneCatalogWorkflow } from '../../workflows/clone';
import { createTestStore } from '../helpers/db';
import { connectTestEnv, uniqueTaskQueue } from '../helpers/temporal';
import { WORKER_TUNING } from '../../workers/worker-tuning';

/** Everything a clone integration test needs: Temporal, a store, temp local workspaces, a worker. */
export interface CloneHarness {
  env: TestWorkflowEnvironment;
  store: Store;
  taskQueue: string;
  bundle: WorkflowBundleWithSourceMap;
  newRoot(): string;
  open(root: string): Promise<Workspace>;
  /** Runs `fn` with a worker whose workspaces may be wrapped (fault injection, no-op clones). */
  withWorker<T>(
    fn: () => Promise<T>,
    opts?: { wrap?: (ws: Workspace, ref: WorkspaceRef) => Workspace; hooks?: CloneHooks[]; maxActivities?: number },
  ): Promise<T>;
  jobInput(root: string, request: Partial<CloneRequestInput>, extra?: Partial<CloneJobInput>): CloneJobInput;
  run(input: CloneJobInput): Promise<CloneSummary>;
  events(jobId: string): Promise<Record<string, unknown>[]>;
  teardown(): Promise<void>;
}

let seq = 0;
export function newJobId(): string {
  const d = new Date();
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  return `clone-${stamp}-${(process.pid % 0xfff).toString(16)}${(seq++).toString(16).padStart(4, '0')}${Math.random().toString(16).slice(2, 6)}`;
}

export async function createCloneHarness(name: string): Promise<CloneHarness> {
  const env = await connectTestEnv();
  const store = await createTestStore();
  const bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows/clone'),
    logger: quietLogger,
  });
  const taskQueue = uniqueTaskQueue(name);
  const roots: string[] = [];
  const h: CloneHarness = {
    env,
    store,
    taskQueue,
    bundle,
    newRoot() {
      const root = mkdtempSync(path.join(os.tmpdir(), `lw-${name}-`));
      roots.push(root);
      return root;
    },
    open: (root) => openWorkspace({ kind: 'local', root }),
    async withWorker(fn, opts = {}) {
      const workspaces = cachedWorkspaces(async (ref) => {
        if (ref.kind !== 'local') throw new Error('tests use local workspaces only');
        const ws = await openWorkspace({ kind: 'local', root: ref.root });
        return opts.wrap ? opts.wrap(ws, ref) : ws;
      });
      const worker = await Worker.create({
        connection: env.nativeConnection,
        taskQueue,
        ...WORKER_TUNING,
        workflowBundle: bundle,
        activities: createCloneActivities({ db: store.db, resolveWorkspace: workspaces.resolve, hooks: opts.hooks }),
        maxConcurrentActivityTaskExecutions: opts.maxActivities ?? 16,
      });
      try {
        return await worker.runUntil(fn);
      } finally {
        await workspaces.closeAll();
      }
    },
    jobInput(root, request, extra = {}) {
      const options = applyCloneDefaults({
        source_catalog: 'prod',
        destination_catalog: 'dev',
        ...request,
      } as CloneRequestInput);
      return {
        jobId: newJobId(),
        options,
        source: { kind: 'local', root },
        targets: [
          { label: 'local', workspace: { kind: 'local', root }, destinationCatalog: options.destination_catalog },
        ],
        createdAt: new Date().toISOString(),
        maxRetries: 3,
        retryInitialIntervalMs: 100,
        ...extra,
      };
    },
    run: (input) =>
      env.client.workflow.execute(cloneCatalogWorkflow, { taskQueue, workflowId: input.jobId, args: [input] }),
    async events(jobId) {
      return (await readRunLog(store.db, jobId)).map((r) => ({
        message: r.message,
        level: r.level,
        ...(r.data ?? {}),
      }));
    },
    async teardown() {
      await store.close();
      await env.teardown();
      for (const r of roots) rmSync(r, { recursive: true, force: true });
    },
  };
  return h;
}

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
