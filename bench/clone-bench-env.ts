import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  bundleWorkflowCode,
  DefaultLogger,
  Runtime,
  Worker,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import { createCloneActivities } from '../activities/clone';
import { cachedWorkspaces } from '../activities/clone/workspace-cache';
import { openWorkspace } from '../platform';
import { LocalThreadPool } from '../platform/local/threads/pool';
import { configSchema } from '../config/schema';
import type { Workspace } from '../platform/port';
import { applyCloneDefaults, type CloneRequestInput } from '../schemas/clone';
import { openStore, type Store } from '../store/db';
import { executableSpec } from '../workers/temporal-binary';
import { cloneCatalogWorkflow } from '../workflows/clone';
import type { CloneJobInput, CloneSummary } from '../workflows/clone/definitions';
import type { CloneRunState } from '../workflows/clone/clone-catalog';
import { DEFAULT_HISTORY_LIMITS } from '../workflows/clone/signals';
import { WORKER_TUNING } from '../workers/worker-tuning';
import { SEARCH_ATTRIBUTES } from '../workflows/jobs/search-attributes';

/** A Temporal dev server, an in-memory store and a clone worker for the clone benchmarks. */
export interface BenchEnv {
  env: TestWorkflowEnvironment;
  store: Store;
  tmp(prefix: string): string;
  /** Runs one clone job on a warmed-up worker; returns the summary, wall seconds and the first run id. */
  clone(
    root: string,
    request: Partial<CloneRequestInput>,
    opts?: { wrap?: (ws: Workspace) => Workspace; run?: CloneRunState },
  ): Promise<{
    summary: CloneSummary;
    seconds: number;
    /** The machine's CPU seconds while the job ran (cpuMeter), the warm-up job left out. */
    cpu: { busy: number; iowait: number };
    jobId: string;
    firstRunId: string;
  }>;
  close(): Promise<void>;
}

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

export async function createBenchEnv(): Promise<BenchEnv> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  // The job kernel's queue workflow (the fixed-cost part goes through it) sets these search attributes.
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: executableSpec('temporal'), searchAttributes: SEARCH_ATTRIBUTES },
  });
  // DATABASE_URL (a dedicated, migrated database) puts the store on Postgres as in production; else PGlite.
  const store = await openStore({ databaseUrl: process.env.LAKEWARD_BENCH_DATABASE_URL ?? null });
  const bundle: WorkflowBundleWithSourceMap = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows/clone'),
    logger: silent,
  });
  const dirs: string[] = [];
  let n = 0;
  // The worker's local lakehouse threads, as a worker process has them (LAKEWARD_WORKER_LOCAL_THREADS; 0: none).
  const threadCount = Number(process.env.LAKEWARD_WORKER_LOCAL_THREADS ?? configSchema.parse({}).worker.local_threads);
  const threads = threadCount > 0 ? new LocalThreadPool(threadCount) : undefined;
  return {
    env,
    store,
    tmp(prefix) {
      const d = mkdtempSync(path.join(os.tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    async clone(root, request, opts = {}) {
      const taskQueue = `bench-clone-${process.pid}-${n++}`;
      const workspaces = cachedWorkspaces(async (ref) => {
        const ws = await openWorkspace({ kind: 'local', root: (ref as { root: string }).root, threads });
        return opts.wrap ? opts.wrap(ws) : ws;
      });
      const worker = await Worker.create({
        connection: env.nativeConnection,
        taskQueue,
        ...WORKER_TUNING,
        workflowBundle: bundle,
        activities: createCloneActivities({ db: store.db, resolveWorkspace: workspaces.resolve }),
        maxConcurrentActivityTaskExecutions: 64,
      });
      const options = applyCloneDefaults({
        source_catalog: 'bench',
        destination_catalog: 'bench_copy',
        ...request,
      } as CloneRequestInput);
      const jobIdBase = `clone-bench-${process.pid}-${n}`;
      const jobId = jobIdBase;
      const input: CloneJobInput = {
        jobId,
        options,
        source: { kind: 'local', root },
        targets: [
          { label: 'local', workspace: { kind: 'local', root }, destinationCatalog: options.destination_catalog },
        ],
        createdAt: new Date().toISOString(),
        maxRetries: 3,
        limits: benchLimits(),
      };
      return worker.runUntil(async () => {
        // Production workers are long-lived: the first job on a fresh worker also pays for loading the
        // workflow bundle into its sandbox and warming the pollers. An untimed job on a tiny catalog of its
        // own first, so the measured job sees a warm worker (the baseline loops also run in a warm process).
        // (Not for wrapped platforms: the history part counts events, not time.)
        if (!opts.wrap) await warmUp(env, taskQueue, root, `${jobIdBase}-warmup`);
        const start = process.hrtime.bigint();
        const cpu = cpuMeter();
        const handle = await env.client.workflow.start(cloneCatalogWorkflow, {
          taskQueue,
          workflowId: jobId,
          args: opts.run ? [input, opts.run] : [input],
        });
        const summary = await handle.result();
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        const used = cpu();
        return {
          summary,
          seconds,
          cpu: used,
          jobId,
          firstRunId: handle.firstExecutionRunId,
        };
      });
    },
    async close() {
      await threads?.close();
      await store.close();
      await env.teardown();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}

const WARM = { catalog: 'lw_bench_warmup', schema: 'w', table: 't' };

/** Clones a one-table catalog (created on first use in `root`) through the worker, untimed. */
async function warmUp(env: TestWorkflowEnvironment, taskQueue: string, root: string, jobId: string): Promise<void> {
  const ws = await openWorkspace({ kind: 'local', root });
  if (!(await ws.listCatalogs()).some((c) => c.name === WARM.catalog)) {
    await ws.createCatalog({ name: WARM.catalog });
    await ws.createSchema({ catalog: WARM.catalog, name: WARM.schema });
    await ws.createTableAs({
      ref: { catalog: WARM.catalog, schema: WARM.schema, name: WARM.table },
      query: 'SELECT 1 AS k',
    });
  }
  const options = applyCloneDefaults({
    source_catalog: WARM.catalog,
    destination_catalog: `${WARM.catalog}_copy`,
  } as CloneRequestInput);
  const input: CloneJobInput = {
    jobId,
    options,
    source: { kind: 'local', root },
    targets: [{ label: 'local', workspace: { kind: 'local', root }, destinationCatalog: options.destination_catalog }],
    createdAt: new Date().toISOString(),
    maxRetries: 3,
    limits: { ...DEFAULT_HISTORY_LIMITS },
  };
  await env.client.workflow.execute(cloneCatalogWorkflow, { taskQueue, workflowId: jobId, args: [input] });
}

export async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/**
 * Starts counting the machine's CPU time (Linux /proc/stat; zeros elsewhere); the function it returns gives the
 * seconds since the start: busy (user, nice, system, irq, softirq) and iowait.
 */
export function cpuMeter(): () => { busy: number; iowait: number } {
  const before = machineCpu();
  return () => {
    const now = machineCpu();
    return { busy: now.busy - before.busy, iowait: now.iowait - before.iowait };
  };
}

function machineCpu(): { busy: number; iowait: number } {
  try {
    const [user, nice, system, , iowait, irq, softirq] = readFileSync('/proc/stat', 'latin1')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const hz = 100; // USER_HZ: 100 on every Linux platform Node runs on
    return { busy: (user + nice + system + irq + softirq) / hz, iowait: iowait / hz };
  } catch {
    return { busy: 0, iowait: 0 };
  }
}

/** Runs `fn` over `items` with `parallel` concurrent loops. */
export async function pool<T>(items: T[], parallel: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** Where a long bench part says what it is doing (one line each). */
export type Progress = (line: string) => void;

export function median(xs: number[]): number {
  const s = [...xs].sort((x, y) => x - y);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * The limits a job gets from the API (DEFAULT_HISTORY_LIMITS); LAKEWARD_BENCH_BATCH_TABLES and
 * LAKEWARD_BENCH_BATCH_BYTES try other batch settings (they travel in the job's input, as the API's do).
 */
function benchLimits() {
  const limits = { ...DEFAULT_HISTORY_LIMITS };
  if (process.env.LAKEWARD_BENCH_BATCH_TABLES) limits.batchTables = Number(process.env.LAKEWARD_BENCH_BATCH_TABLES);
  if (process.env.LAKEWARD_BENCH_BATCH_BYTES) limits.batchBytes = Number(process.env.LAKEWARD_BENCH_BATCH_BYTES);
  return limits;
}
