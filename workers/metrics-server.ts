import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { RuntimeOptions } from '@temporalio/worker';
import type { Config } from '../config/load';
import { METRICS_CONTENT_TYPE, renderMetrics } from '../platform/observability/metrics';

export interface MetricsServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/** How long a scrape waits for the Temporal SDK's exporter before answering without its series. */
const SDK_SCRAPE_TIMEOUT_MS = 2000;

/** The Temporal SDK's Prometheus exporter address (loopback), or null when `worker.temporal_metrics_port` is off. */
export function temporalMetricsAddress(config: Pick<Config, 'worker'>): string | null {
  const port = config.worker.temporal_metrics_port;
  return port ? `127.0.0.1:${port}` : null;
}

/**
 * Runtime telemetry options that make the Temporal SDK export its own metrics (worker task slots, poll and
 * schedule-to-start latencies, sticky cache, …) in Prometheus format on `temporalMetricsAddress`, named by the
 * Prometheus conventions (`_total` counters, seconds). `Runtime.install` takes them once per process.
 */
export function temporalRuntimeTelemetry(config: Pick<Config, 'worker'>): RuntimeOptions['telemetryOptions'] {
  const bindAddress = temporalMetricsAddress(config);
  if (!bindAddress) return undefined;
  return {
    metrics: {
      prometheus: { bindAddress, countersTotalSuffix: true, unitSuffix: true, useSecondsForDurations: true },
    },
  };
}

/** The SDK exporter this process installed (see `prepareTemporalTelemetry`); null when it has none. */
let exporterAddress: string | null = null;

export function temporalExporterAddress(): string | null {
  return exporterAddress;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createTcpServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * The Runtime telemetry for this worker process, when `worker.temporal_metrics_port` is on and free. The SDK's
 * Runtime refuses to start its exporter on a busy port (and then can only run without it), so a busy port means
 * no SDK metrics, with a warning to log, rather than a failed start or another process's series merged in.
 */
export async function prepareTemporalTelemetry(
  config: Pick<Config, 'worker'>,
): Promise<{ telemetry?: RuntimeOptions['telemetryOptions']; warning?: string }> {
  const address = temporalMetricsAddress(config);
  if (!address) return {};
  if (!(await portFree(config.worker.temporal_metrics_port!))) {
    return {
      warning: `worker.temporal_metrics_port: ${address} is in use; the worker's /metrics has no Temporal SDK series`,
    };
  }
  exporterAddress = address;
  return { telemetry: temporalRuntimeTelemetry(config) };
}

/** The SDK's series as text, or a comment saying why they are missing (a scrape never fails for them). */
async function sdkMetrics(address: string): Promise<string> {
  try {
    const res = await fetch(`http://${address}/metrics`, { signal: AbortSignal.timeout(SDK_SCRAPE_TIMEOUT_MS) });
    if (!res.ok) return `# Temporal SDK metrics unavailable: HTTP ${res.status}\n`;
    return await res.text();
  } catch (err) {
    return `# Temporal SDK metrics unavailable: ${(err as Error).message.replace(/\s+/g, ' ')}\n`;
  }
}

/**
 * A small HTTP server answering `GET /metrics` with this process's registry (Lakeward series and process
 * metrics), followed by the Temporal SDK's series when `sdkAddress` names its exporter. It serves the worker's
 * endpoint (`worker.metrics_port`) and the API's separate `metrics.bind` listener; it holds no job data, so it
 * asks for no key: bind it to a private address.
 */
export async function startMetricsServer(opts: {
  host: string;
  port: number;
  sdkAddress?: string | null;
}): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    void (async () => {
      const own = await renderMetrics();
      const body = opts.sdkAddress ? `${own}\n${await sdkMetrics(opts.sdkAddress)}` : own;
      res.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE }).end(req.method === 'HEAD' ? undefined : body);
    })().catch((err: unknown) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics failed: ${(err as Error).message}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = opts.host === '0.0.0.0' || opts.host === '::' ? 'localhost' : opts.host;
  return {
    server,
    port,
    url: `http://${shownHost}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** `host:port` (config `metrics.bind`) split for `listen`. */
export function parseBind(bind: string): { host: string; port: number } {
  const i = bind.lastIndexOf(':');
  return { host: bind.slice(0, i), port: Number(bind.slice(i + 1)) };
}

/** A listen failure that names the config key, so start-up says which port to change. */
export async function startConfiguredMetricsServer(
  key: string,
  opts: { host: string; port: number; sdkAddress?: string | null },
): Promise<MetricsServer> {
  try {
    return await startMetricsServer(opts);
  } catch (err) {
    throw new Error(`${key}: cannot serve metrics on ${opts.host}:${opts.port}: ${(err as Error).message}`);
  }
}
