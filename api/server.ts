import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import type { AppDeps } from './deps';
import { upgradeListener } from './middleware/upgrade';

export interface RunningServer {
  server: Server;
  /** The bound port (useful with port 0). */
  port: number;
  url: string;
  /** Stops accepting connections, lets in-flight requests finish (up to `graceMs`), then closes the rest. */
  close(graceMs?: number): Promise<void>;
}

/** Listens on `host:port` (config api_server by default; port 0 picks a free one). */
export async function startServer(deps: AppDeps, opts: { host?: string; port?: number } = {}): Promise<RunningServer> {
  const host = opts.host ?? deps.config.api_server.host;
  const app = createApp(deps);
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject); // EADDRINUSE and friends reject instead of crashing
    server.listen(opts.port ?? deps.config.api_server.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('upgrade', upgradeListener(app));
  const port = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return {
    server,
    port,
    url: `http://${shownHost}:${port}`,
    close: (graceMs = 5000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
