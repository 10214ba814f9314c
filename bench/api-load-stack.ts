import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, type Worker } from '@temporalio/worker';
import express from 'express';
import { Client as PgClient } from 'pg';
import pino from 'pino';
import type { AppDeps } from '../api/deps';
import { createWorkspaceResolver } from '../api/middleware/workspaces';
import { startServer, type RunningServer } from '../api/server';
import { loadConfig, type Config } from '../config/load';
import { seedDemo } from '../platform/local/demo/seed';
import { openStore, type Store } from '../store/db';
import { openPlatformWorkspace } from '../workers/open-workspace';
import { executableSpec } from '../workers/temporal-binary';
import { SEARCH_ATTRIBUTES } from '../workflows/jobs/search-attributes';
import type { Progress } from './clone-bench-env';

/** The real stack in this process (Temporal dev server, store, worker, API) plus the bare baseline server. */
export interface LoadStack {
  config: Config;
  store: Store;
  /** The API's base URL. */
  api: string;
  /** The bare Express route: GET <baseline> answers a constant JSON body of `setBaselineBytes` bytes. */
  baseline: string;
  setBaselineBytes(bytes: number): void;
  /** The demo catalog clones read from. */
  source: string;
  close(): Promise<void>;
}

/**
 * Starts everything the load bench measures, as production wires it: Temporal (a dev server), the store
 * (PGlite in the data folder, or a fresh Postgres database when LAKEWARD_BENCH_DATABASE_URL names a server),
 * a worker with every workflow and the real activities, the API (createApp + startServer, pino at info to a
 * file as a deployed API logs) and a local lakehouse seeded with the demo catalog. Two clone jobs may run at
 * once (clone.max_concurrent 2) so a throttled clone and a deep clone are in progress together.
 */
export async function startLoadStack(progress: Progress): Promise<LoadStack> {
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => undefined);
  };
  try {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lw-api-load-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const configPath = path.join(dataDir, 'lakeward.yaml');
    writeFileSync(configPath, 'clone:\n  max_concurrent: 2\n');
    const databaseUrl = await benchDatabase(cleanups);
    const config = loadConfig({ configPath, env: {}, flags: { dataDir, ...(databaseUrl ? { databaseUrl } : {}) } });

    progress(`seeding the demo catalog in ${config.workspace.root}`);
    const seeded = await seedDemo({ root: config.workspace.root, catalog: 'demo_sales', scale: 'small' });
    progress(`seeded ${seeded.tables} tables, ${seeded.views} views in ${(seeded.elapsedMs / 1000).toFixed(1)} s`);

    progress('starting the Temporal dev server');
    Runtime.install({ logger: new DefaultLogger('ERROR') });
    const env = await TestWorkflowEnvironment.createLocal({
      server: { executable: executableSpec('temporal'), searchAttributes: SEARCH_ATTRIBUTES },
    });
    cleanups.push(() => env.teardown());
    const store = await openStore({ databaseUrl: config.database_url, dataDir });
    cleanups.push(() => store.close());
    const workspaces = createWorkspaceResolver(config, openPlatformWorkspace);
    cleanups.push(() => workspaces.close());

    const workerMode = benchWorkerMode(databaseUrl);
    if (workerMode === 'process') {
      progress('starting the worker as its own process (lakeward serve --worker-only), as production runs it');
      const child = await startWorkerProcess({
        configPath,
        dataDir,
        databaseUrl: databaseUrl!,
        temporalAddress: env.connection.options.address,
      });
      cleanups.push(() => stopProcess(child));
    } else {
      progress(`starting the worker in this process (bundling workflows) with the ${store.driver} store`);
      // Loaded only here: with the worker in its own process, this one holds what an API-only process does.
      const { createWorker } = await import('../workers/worker');
      const worker: Worker = await createWorker({
        connection: env.nativeConnection,
        taskQueue: config.temporal.task_queue,
        deps: { config, store, client: env.client, workspaces },
      });
      const running = worker.run();
      cleanups.push(async () => {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running.catch(() => undefined);
      });
    }

    const logFile = createWriteStream(path.join(dataDir, 'api.log'));
    const deps: AppDeps = {
      config,
      store,
      temporal: { client: env.client, connection: env.connection, address: env.connection.options.address },
      logger: pino({ level: 'info' }, logFile),
      workspaces,
      startedAt: new Date(),
    };
    const server: RunningServer = await startServer(deps, { host: '127.0.0.1', port: 0 });
    cleanups.push(() => server.close(1000));

    const bare = await startBaseline();
    cleanups.push(() => new Promise<void>((resolve) => bare.server.close(() => resolve())));
    progress(
      `API at ${server.url}, baseline at ${bare.url}, worker ${workerMode === 'process' ? 'in its own process' : 'in the API process'}`,
    );
    return {
      config,
      store,
      api: server.url,
      baseline: bare.url,
      setBaselineBytes: bare.setBytes,
      source: seeded.catalog,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * A bare Express app (no middleware) whose one route answers a constant JSON object, serialised per request
 * like the API's `res.json`, whose text is exactly the size of the route it is compared with.
 */
async function startBaseline(): Promise<{ server: Server; url: string; setBytes(bytes: number): void }> {
  let body: { pad: string } = { pad: '' };
  const app = express();
  app.get('/baseline', (_req, res) => {
    res.json(body);
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}/baseline`,
    setBytes(bytes) {
      const overhead = JSON.stringify({ pad: '' }).length;
      body = { pad: 'x'.repeat(Math.max(0, bytes - overhead)) };
    },
  };
}

/** With LAKEWARD_BENCH_DATABASE_URL (a Postgres server), a fresh database for this run, dropped at the end. */
async function benchDatabase(cleanups: (() => Promise<void>)[]): Promise<string | null> {
  const admin = process.env.LAKEWARD_BENCH_DATABASE_URL;
  if (!admin) return null;
  const name = `lakeward_bench_load_${process.pid}`;
  const run = async (sql: string) => {
    const c = new PgClient({ connectionString: admin });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  cleanups.push(() => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Where the worker runs: `process` (its own `lakeward serve --worker-only`, the production shape; needs Postgres,
 * since PGlite is single-process) or `inline` (in the API's process, as `lakeward dev` runs it). Default: process
 * with a Postgres store, inline on PGlite; LAKEWARD_BENCH_WORKER chooses.
 */
function benchWorkerMode(databaseUrl: string | null): 'process' | 'inline' {
  const asked = process.env.LAKEWARD_BENCH_WORKER;
  if (asked !== undefined && asked !== 'process' && asked !== 'inline')
    throw new Error(`LAKEWARD_BENCH_WORKER must be process or inline, got ${JSON.stringify(asked)}`);
  const mode = asked ?? (databaseUrl ? 'process' : 'inline');
  if (mode === 'process' && !databaseUrl)
    throw new Error(
      'LAKEWARD_BENCH_WORKER=process needs LAKEWARD_BENCH_DATABASE_URL (a worker in another process shares the store)',
    );
  return mode;
}

/** `lakeward serve --worker-only` on the bench's config, store and Temporal server; resolves once it runs. */
function startWorkerProcess(opts: {
  configPath: string;
  dataDir: string;
  databaseUrl: string;
  temporalAddress: string;
}): Promise<ChildProcess> {
  const bin = path.resolve(__dirname, '../bin/lakeward');
  const child = spawn(
    bin,
    [
      'serve',
      '--worker-only',
      '--config',
      opts.configPath,
      '--data-dir',
      opts.dataDir,
      '--database-url',
      opts.databaseUrl,
      '--temporal-address',
      opts.temporalAddress,
      '--log-level',
      'warn',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LAKEWARD_WORKER_METRICS_PORT: '0', LAKEWARD_TEMPORAL_METRICS_PORT: '0' },
    },
  );
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
      if (stderr.includes('Lakeward is running')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`the worker process exited before it ran (${code}): ${stderr}`)));
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
