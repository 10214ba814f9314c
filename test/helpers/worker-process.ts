import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Harness } from './harness';

const bundleFiles = new WeakMap<Harness, string>();

/**
 * Starts the real worker wiring (test/clone/fixtures/worker-main.ts) as its own process, so a test can SIGKILL
 * it mid-job; resolves once it polls. It shares the store through `databaseUrl` (Postgres: PGlite is
 * single-process) and reuses the harness's workflow bundle instead of bundling again. `callLog` names a file
 * where the worker writes one line `<epoch ms> <method>` per platform call that reaches its adapter.
 * Its Temporal worker identity is the SDK's default, `<pid>@<host>` (see `workerIdentity`).
 */
export function startWorkerProcess(
  h: Harness,
  opts: { taskQueue: string; databaseUrl: string; cloneDelayMs?: number; callLog?: string },
): Promise<ChildProcess> {
  let bundlePath = bundleFiles.get(h);
  if (!bundlePath) {
    bundlePath = path.join(h.newRoot(), 'workflow-bundle.js');
    writeFileSync(bundlePath, h.bundle.code);
    bundleFiles.set(h, bundlePath);
  }
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', require.resolve('../clone/fixtures/worker-main.ts')], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
      TASK_QUEUE: opts.taskQueue,
      LAKEWARD_DATABASE_URL: opts.databaseUrl,
      LAKEWARD_DATA_DIR: h.config.data_dir,
      LAKEWARD_WORKFLOW_BUNDLE: bundlePath,
      LAKEWARD_TEST_CLONE_DELAY_MS: String(opts.cloneDelayMs ?? 0),
      ...(opts.callLog ? { LAKEWARD_TEST_CALL_LOG: opts.callLog } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('worker ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`worker process exited before it was ready (${code}): ${stderr}`)));
  });
}

/** The identity a worker process shows in workflow histories (ActivityTaskStarted events). */
export function workerIdentity(child: ChildProcess): string {
  return `${child.pid}@${os.hostname()}`;
}

/** The platform call times (epoch ms) a worker process wrote to its `callLog` file. */
export function readCallLog(file: string): { at: number; method: string }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [at, method] = line.split(' ');
      return { at: Number(at), method };
    });
}
