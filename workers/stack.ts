import { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { AppDeps } from '../api/deps';
import { createWorkspaceResolver } from '../api/middleware/workspaces';
import { startServer, type RunningServer } from '../api/server';
import type { Config } from '../config/load';
import { openStore, type Store } from '../store/db';
import { platformWorkspaceOpener } from './open-workspace';
import { LocalThreadPool } from '../platform/local/threads/pool';
import { startDevServer, type DevServer } from './temporal-dev-server';
import { parseBind, startConfiguredMetricsServer } from './metrics-server';
import { startTracing } from '../platform/observability/tracing';
import { clientInterceptors } from './telemetry';

export interface StackOptions {
  api: boolean;
  worker: boolean;
  logger: Logger;
  /** Called with the embedded Temporal server's pid as soon as it is spawned. */
  onTemporalPid?: (pid: number) => void;
}

export interface Stack {
  apiUrl?: string;
  temporalAddress: string;
  /** Web UI of the embedded dev server (absent when connected to a cluster). */
  temporalUiUrl?: string;
  temporalPid?: number;
  /** The worker's `GET /metrics` (worker.metrics_port), when this process runs a worker with it on. */
  workerMetricsUrl?: string;
  /** The API's separate metrics listener (metrics.bind), when set. */
  apiMetricsUrl?: string;
  /** Rejects if the worker stops on its own (a fatal worker error). */
  workerDone: Promise<void>;
  /** Stops API, worker, store and the dev server, in that order. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts the parts of Lakeward this process runs: the embedded Temporal dev server (unless
 * temporal.address names a cluster), the store (migrated), one NativeConnection shared by the client and
 * the worker, the worker and the API. Whatever started is stopped again if a later step fails.
 */
export async function startStack(config: Config, opts: StackOptions): Promise<Stack> {
  const cleanups: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const fn of cleanups.splice(0).reverse()) {
      await fn().catch((err: unknown) => opts.logger.error({ err }, 'shutdown step failed'));
    }
  };
  try {
    // Off unless tracing.otlp_endpoint / OTEL_EXPORTER_OTLP_ENDPOINT is set; stopped last, after its spans end.
    const tracing = startTracing(config.tracing);
    cleanups.push(() => tracing.shutdown());
    let dev: DevServer | undefined;
    if (!config.temporal.address) {
      const { port, ui_port: uiPort, namespace } = config.temporal;
      dev = await startDevServer({ dataDir: config.data_dir, port, uiPort, namespace, onSpawn: opts.onTemporalPid });
      cleanups.push(() => dev!.stop());
    }
    const address = config.temporal.address ?? dev!.address;
    const store: Store = await openStore({ databaseUrl: config.database_url, dataDir: config.data_dir });
    cleanups.push(() => store.close());
    const connection = await NativeConnection.connect({ address });
    cleanups.push(() => connection.close());
    const client = new Client({ connection, namespace: config.temporal.namespace, interceptors: clientInterceptors() });
    // A process that runs a worker gives the local lakehouse threads (worker.local_threads) for its metadata calls.
    const threads =
      opts.worker && config.worker.local_threads > 0 ? new LocalThreadPool(config.worker.local_threads) : null;
    if (threads) cleanups.push(() => threads.close());
    const workspaces = createWorkspaceResolver(config, platformWorkspaceOpener(threads ?? undefined));
    cleanups.push(() => workspaces.close());

    let workerDone: Promise<void> = new Promise(() => undefined);
    const metricsUrls: { worker?: string; api?: string } = {};
    if (opts.worker) {
      const { startStackWorker } = await import('./stack-worker');
      const started = await startStackWorker({
        config,
        store,
        connection,
        client,
        address,
        workspaces,
        tracing,
        logger: opts.logger,
        cleanups,
      });
      workerDone = started.workerDone;
      metricsUrls.worker = started.metricsUrl;
    }

    let server: RunningServer | undefined;
    if (opts.api) {
      const deps: AppDeps = {
        config,
        store,
        temporal: { client, connection, address },
        logger: opts.logger,
        workspaces,
        startedAt: new Date(),
      };
      server = await startServer(deps);
      cleanups.push(() => server!.close());
      if (config.metrics.bind) {
        const metrics = await startConfiguredMetricsServer('metrics.bind', parseBind(config.metrics.bind));
        metricsUrls.api = metrics.url;
        cleanups.push(() => metrics.close());
      }
    }
    return {
      apiUrl: server?.url,
      temporalAddress: address,
      temporalUiUrl: dev?.uiUrl,
      temporalPid: dev?.pid,
      workerMetricsUrl: metricsUrls.worker,
      apiMetricsUrl: metricsUrls.api,
      workerDone,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
