import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities, type Activities, type ActivityDeps } from '../../activities';
import { createCloneActivities, type CloneHooks } from '../../activities/clone';
import { classifyActivities } from '../../activities/clone/failures';
import { withActivityMetrics } from '../../platform/observability/activity-metrics';
import { createSafetyHooks } from '../../activities/clone/post-clone';
import { cloneWorkspaceResolver } from '../../activities/clone/resolve-workspace';
import { loadConfig, type Config } from '../../config/load';
import { LocalWorkspace } from '../../platform/local/workspace';
import { LocalThreadPool } from '../../platform/local/threads/pool';
import { onLocalThreads } from '../../platform/local/threads/workspace';
import { createWorkspaceResolver } from '../../platform/workspace-resolver';
import type { Workspace } from '../../platform/port';
import type { CloneRequestInput } from '../../schemas/clone';
import { openStore, type Store } from '../../store/db';
import { configTargetCipher } from '../../store/targets/cipher';
import { readRunLog } from '../../store/jobs/run-logs';
import { WORKER_TUNING } from '../../workers/worker-tuning';
import type { CloneJobInput, CloneSummary, WorkspaceRef } from '../../workflows/clone/definitions';
import { createTestDatabase, createTestStore } from './db';
import { cloneJobInput } from './job-input';
import { connectTestEnv, uniqueTaskQueue } from './temporal';

export { eventually } from './eventually';
export { newJobId } from './job-input';

/** How one worker differs from the real one: everything else is `createActivities(deps)` as the worker wires it. */
export interface WorkerOptions {
  /** Task queue to poll; defaults to the harness's own. */
  taskQueue?: string;
  /** Wraps each workspace the activities open (fault injection, slow or synthetic workspaces). */
  wrap?: (ws: Workspace, ref: WorkspaceRef) => Workspace;
  /** Replaces activity dependencies (config, store, client, workspaces). */
  deps?: Partial<ActivityDeps>;
  /** Extra clone hooks, run before the worker's own safety hooks. */
  cloneHooks?: CloneHooks[];
  /** Replaces individual activities; receives the real ones to delegate to. */
  activities?: (real: Activities) => Partial<Activities>;
  maxActivities?: number;
}

/** The one integration-test harness: Temporal, a store, temp local lakehouses and a worker with the real wiring. */
export interface Harness {
  env: TestWorkflowEnvironment;
  store: Store;
  /** The store's Postgres URL (a worker in another process can share it), or null on PGlite. */
  databaseUrl: string | null;
  config: Config;
  taskQueue: string;
  /** The real workflow bundle (workflows/index.ts), bundled once per harness. */
  bundle: WorkflowBundleWithSourceMap;
  newTaskQueue(): string;
  /** A fresh temp folder for a local lakehouse, removed at teardown. */
  newRoot(): string;
  open(root: string): Workspace;
  activities(opts?: WorkerOptions): Activities;
  withWorker<T>(fn: () => Promise<T>, opts?: WorkerOptions): Promise<T>;
  jobInput(root: string, request: Partial<CloneRequestInput>, extra?: Partial<CloneJobInput>): CloneJobInput;
  run(input: CloneJobInput, taskQueue?: string): Promise<CloneSummary>;
  events(jobId: string): Promise<Record<string, unknown>[]>;
  teardown(): Promise<void>;
}

let bundled: Promise<WorkflowBundleWithSourceMap> | undefined;
function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundled ??= bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: quietLogger });
  return bundled;
}

export async function createHarness(name: string): Promise<Harness> {
  const env = await connectTestEnv();
  const { store, databaseUrl } = await openHarnessStore();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `lw-${name}-data-`));
  const roots: string[] = [dataDir];
  const config = loadConfig({ env: {}, flags: { dataDir } });
  // The worker's local lakehouse threads, as `lakeward dev` and `lakeward worker` give them (started at first use).
  let threads: LocalThreadPool | null = null;
  const onThreads = (ws: Workspace, root: string): Workspace => {
    if (config.worker.local_threads === 0) return ws;
    threads ??= new LocalThreadPool(config.worker.local_threads);
    return onLocalThreads(ws, threads, { root, user: 'lakeward' });
  };
  const h: Harness = {
    env,
    store,
    databaseUrl,
    config,
    taskQueue: uniqueTaskQueue(name),
    bundle: await workflowBundle(),
    newTaskQueue: () => uniqueTaskQueue(name),
    newRoot() {
      const root = mkdtempSync(path.join(os.tmpdir(), `lw-${name}-`));
      roots.push(root);
      return root;
    },
    open: (root) => new LocalWorkspace({ root, user: 'lakeward' }),
    activities(opts = {}) {
      const deps: ActivityDeps = {
        config,
        store,
        client: env.client,
        workspaces: createWorkspaceResolver(
          () => ({ kind: 'local', root: config.workspace.root }),
          async (spec) => {
            if (spec.kind !== 'local') throw new Error('tests use local workspaces only');
            const ws = onThreads(h.open(spec.root), spec.root);
            return opts.wrap ? opts.wrap(ws, spec) : ws;
          },
        ),
        ...opts.deps,
      };
      let real = createActivities(deps);
      if (opts.cloneHooks?.length) {
        // createActivities has no seam for extra clone hooks: rebuild the clone activities exactly as it does,
        // with the test's hooks ahead of the worker's safety hooks, and classified the same way.
        const resolveWorkspace = cloneWorkspaceResolver(
          deps.workspaces,
          deps.store.db,
          configTargetCipher(deps.config),
        );
        const safety = createSafetyHooks({ db: deps.store.db, resolveWorkspace });
        const hooks = [...opts.cloneHooks, safety];
        real = {
          ...real,
          ...classifyActivities(createCloneActivities({ db: deps.store.db, resolveWorkspace, hooks })),
        };
      }
      return { ...real, ...classifyActivities(opts.activities?.(real) ?? {}) };
    },
    async withWorker(fn, opts = {}) {
      const activities = h.activities(opts);
      // The worker's activity metrics interceptor too, as createWorker adds it.
      const worker = await Worker.create(
        withActivityMetrics({
          connection: env.nativeConnection,
          taskQueue: opts.taskQueue ?? h.taskQueue,
          ...WORKER_TUNING,
          workflowBundle: h.bundle,
          activities,
          maxConcurrentActivityTaskExecutions: opts.maxActivities ?? 16,
        }),
      );
      return worker.runUntil(fn);
    },
    jobInput: (root, request, extra) => cloneJobInput(root, request, extra),
    run: (input, taskQueue = h.taskQueue) =>
      env.client.workflow.execute('cloneCatalogWorkflow', { taskQueue, workflowId: input.jobId, args: [input] }),
    async events(jobId) {
      return (await readRunLog(store.db, jobId)).map((r) => ({
        message: r.message,
        level: r.level,
        ...(r.data ?? {}),
      }));
    },
    async teardown() {
      await threads?.close();
      await store.close();
      await env.teardown();
      for (const r of roots) rmSync(r, { recursive: true, force: true });
    },
  };
  return h;
}

/** On Postgres the harness keeps its database URL, so a worker in another process can share the store. */
async function openHarnessStore(): Promise<{ store: Store; databaseUrl: string | null }> {
  if (!process.env.DATABASE_URL) return { store: await createTestStore('pglite'), databaseUrl: null };
  const database = await createTestDatabase();
  const opened = await openStore({ databaseUrl: database.url }).catch(async (err: unknown) => {
    await database.drop();
    throw err;
  });
  const close = async () => {
    await opened.close();
    await database.drop();
  };
  return { store: { ...opened, close }, databaseUrl: database.url };
}

const quietLogger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
