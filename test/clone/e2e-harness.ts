import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createCloneActivities, type CloneHooks } from '../../activities/clone';
import { cachedWorkspaces } from '../../activities/clone/workspace-cache';
import { createSafetyActivities, createSafetyHooks } from '../../activities/clone/post-clone';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Workspace } from '../../platform/port';
import { applyCloneDefaults, type CloneRequestInput } from '../../schemas/clone';
import type { Store } from '../../store/db';
import type { CloneJobInput } from '../../workflows/clone/definitions';
import { createTestDatabase, createTestStore } from '../helpers/db';
import { openStore } from '../../store/db';
import { connectTestEnv, uniqueTaskQueue } from '../helpers/temporal';
import { WORKER_TUNING } from '../../workers/worker-tuning';

export type SafetyActivityOverrides = (
  acts: ReturnType<typeof createSafetyActivities>,
) => Partial<ReturnType<typeof createSafetyActivities>>;

export interface WorkerOpts {
  testHooks?: CloneHooks[];
  override?: SafetyActivityOverrides;
}

/** Temporal + store + a temp local lakehouse + a worker running the clone engine with the safety features. */
export async function createSafetyHarness(name: string) {
  const env: TestWorkflowEnvironment = await connectTestEnv();
  // On Postgres the harness keeps the database URL, so a worker in another process can share the store.
  const database = process.env.DATABASE_URL ? await createTestDatabase() : null;
  const opened: Store = database ? await openStore({ databaseUrl: database.url }) : await createTestStore();
  const store: Store = database
    ? {
        ...opened,
        close: async () => {
          await opened.close();
          await database.drop();
        },
      }
    : opened;
  const bundle: WorkflowBundleWithSourceMap = await bundleWorkflowCode({
    workflowsPath: require.resolve('./fixtures/workflows'),
    logger: quiet,
  });
  const roots: string[] = [];
  let n = 0;
  const h = {
    env,
    store,
    bundle,
    databaseUrl: database?.url ?? null,
    newRoot(): string {
      const root = mkdtempSync(path.join(os.tmpdir(), `lw-${name}-`));
      roots.push(root);
      return root;
    },
    open: (root: string): Workspace => new LocalWorkspace({ root, user: 'lakeward' }),
    activities(opts: WorkerOpts = {}): Record<string, (...args: never[]) => Promise<unknown>> {
      const workspaces = cachedWorkspaces(async (ref) => h.open((ref as { root: string }).root));
      const deps = { db: store.db, resolveWorkspace: workspaces.resolve };
      const safety = createSafetyActivities(deps);
      const hooks: CloneHooks[] = [...(opts.testHooks ?? []), createSafetyHooks(deps)];
      return { ...createCloneActivities({ ...deps, hooks }), ...safety, ...(opts.override?.(safety) ?? {}) };
    },
    async withWorker<T>(taskQueue: string, fn: () => Promise<T>, opts: WorkerOpts = {}): Promise<T> {
      const worker = await Worker.create({
        connection: env.nativeConnection,
        taskQueue,
        ...WORKER_TUNING,
        workflowBundle: bundle,
        activities: h.activities(opts),
      });
      return worker.runUntil(fn);
    },
    jobInput(root: string, request: Partial<CloneRequestInput>): CloneJobInput {
      const options = applyCloneDefaults({
        source_catalog: 'prod',
        destination_catalog: 'dev',
        ...request,
      } as CloneRequestInput);
      return {
        jobId: `clone-${name}-${process.pid}-${n++}-${Date.now().toString(36)}`,
        options,
        source: { kind: 'local', root },
        targets: [
          { label: 'local', workspace: { kind: 'local', root }, destinationCatalog: options.destination_catalog },
        ],
        createdAt: new Date().toISOString(),
        maxRetries: 2,
        retryInitialIntervalMs: 100,
      };
    },
    taskQueue: () => uniqueTaskQueue(name),
    async teardown() {
      await store.close();
      await env.teardown();
      for (const r of roots) rmSync(r, { recursive: true, force: true });
    },
  };
  return h;
}

export type SafetyHarness = Awaited<ReturnType<typeof createSafetyHarness>>;

const quiet = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
