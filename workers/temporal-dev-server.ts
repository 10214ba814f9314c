import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, closeSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { SEARCH_ATTRIBUTES } from '../workflows/jobs/search-attributes';
import { findBinary } from './temporal-binary';

export interface DevServerOptions {
  dataDir: string;
  port: number;
  uiPort: number;
  namespace: string;
  /** Told the child's pid as soon as it is spawned (so a forced exit during start-up can still kill it). */
  onSpawn?: (pid: number) => void;
}

export interface DevServer {
  address: string;
  uiUrl: string;
  /** Pid of the `temporal` process (undefined when the SDK manages a downloaded binary). */
  pid?: number;
  logFile?: string;
  stop(): Promise<void>;
}

const CLI_TYPES: Record<string, string> = {
  KEYWORD: 'Keyword',
  TEXT: 'Text',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

/**
 * `temporal server start-dev` with its SQLite file and log in the data folder. The child gets its own
 * process group, so Ctrl-C reaches only Lakeward, which stops the worker first and then the server (a
 * server dying under a running worker would spam errors). Without a `temporal` binary it falls back to
 * the Temporal SDK's downloaded dev server.
 */
export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  mkdirSync(opts.dataDir, { recursive: true });
  const dbFile = path.join(opts.dataDir, 'temporal.db');
  const binary = findBinary('temporal');
  if (!binary) return startWithSdk(opts, dbFile);

  const args = ['server', 'start-dev', '--db-filename', dbFile, '--ip', '127.0.0.1'];
  args.push('--port', String(opts.port), '--ui-port', String(opts.uiPort), '--namespace', opts.namespace);
  args.push('--log-level', 'warn', '--dynamic-config-value', 'limit.maxIDLength=1000');
  for (const sa of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${sa.name}=${CLI_TYPES[sa.type]}`);
  const logFile = path.join(opts.dataDir, 'temporal.log');
  const log = openSync(logFile, 'a');
  const child = spawn(binary, args, { detached: true, stdio: ['ignore', log, log] });
  closeSync(log);
  if (child.pid) opts.onSpawn?.(child.pid);
  const address = `127.0.0.1:${opts.port}`;
  const stop = () => stopProcessGroup(child);
  try {
    await waitReachable(address, child, logFile);
  } catch (err) {
    await stop();
    throw err;
  }
  return { address, uiUrl: `http://localhost:${opts.uiPort}`, pid: child.pid, logFile, stop };
}

async function waitReachable(address: string, child: ChildProcess, logFile: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = `exited with ${signal ?? `code ${code}`}`));
  for (;;) {
    if (exited) throw new Error(`temporal dev server ${exited} (see ${logFile}; is port ${address} in use?)`);
    try {
      const conn = await NativeConnection.connect({ address });
      await conn.close();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`temporal dev server not reachable at ${address}: ${String(err)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** SIGTERM to the whole group, SIGKILL if it has not exited within `graceMs`; resolves once it is gone. */
export async function stopProcessGroup(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signalGroup = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
  };
  signalGroup('SIGTERM');
  const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

async function startWithSdk(opts: DevServerOptions, dbFile: string): Promise<DevServer> {
  // The SDK's testing package (its download and server management) loads only on this fallback path.
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'cached-download' },
      dbFilename: dbFile,
      port: opts.port,
      ui: true,
      uiPort: opts.uiPort,
      namespace: opts.namespace,
      searchAttributes: SEARCH_ATTRIBUTES,
    },
  });
  return {
    address: env.connection.options.address,
    uiUrl: `http://localhost:${opts.uiPort}`,
    stop: () => env.teardown(),
  };
}
