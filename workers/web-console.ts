import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Agent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import express, { type Express, type RequestHandler } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { Config } from '../config/load';
import { pageFilesFor, withModulePreloads, type PageChunks } from './web-preload';

/** Where `npm run web:build` writes the console (the checkout's `web/dist`). */
export const DEFAULT_WEB_DIST = path.resolve(__dirname, '../web/dist');

/** What `/config.json` tells the console, so one build runs against any API. */
export interface ConsoleConfig {
  /** Base URL of the API for the browser; '' = this origin (the console's server proxies `/api`). */
  api_url: string;
  /** Base URL of the Temporal Web UI that job pages link to; null when none is known. */
  temporal_ui_url: string | null;
  namespace: string;
}

export interface WebConsoleOptions {
  /** The built console (index.html and its assets). */
  distDir: string;
  /** The API that `/api` and its WebSockets are proxied to, e.g. http://127.0.0.1:8080. */
  apiUrl: string;
  console: ConsoleConfig;
}

export class MissingWebBuildError extends Error {
  constructor(distDir: string) {
    super(`The web console is not built (${path.join(distDir, 'index.html')} is missing): run \`npm run web:build\``);
  }
}

/** How long a kept connection to the API may stay idle: below Node's default server keep-alive timeout (5 s). */
export const API_IDLE_CLOSE_MS = 4_000;

/** Paths the API serves: `/api` and everything under it. */
const isApiPath = (url = '/') => /^\/api(\/|\?|$)/.test(url);

/** The upstream API of `lakeward web`: web.api_url, else the configured API address (a wildcard host as loopback). */
export function webApiUpstream(config: Config): string {
  if (config.web.api_url) return config.web.api_url.replace(/\/+$/, '');
  const host = ['0.0.0.0', '::', ''].includes(config.api_server.host) ? '127.0.0.1' : config.api_server.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.api_server.port}`;
}

export function consoleConfigOf(config: Config): ConsoleConfig {
  return { api_url: '', temporal_ui_url: config.temporal.ui_url, namespace: config.temporal.namespace };
}

/** The old slug of the convert page, kept working for bookmarks: `/convert-to-delta[/…][?…]` → `/convert…`. */
const legacyRedirects: RequestHandler = (req, res, next) => {
  const m = /^\/convert-to-delta(\/.*)?$/.exec(req.path);
  if (!m) return next();
  const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
  res.redirect(301, `/convert${m[1] ?? ''}${query}`);
};

/**
 * The console's server: `/config.json`, the old-slug redirect, `/api` (and its WebSockets) proxied to the API so
 * the browser stays on one origin, the built files (hashed assets cached for a year), and index.html for any other
 * page path (the single-page fallback). A missing file with an extension stays a 404, so a stale asset URL never
 * gets HTML back.
 */
export function createWebConsoleApp(opts: WebConsoleOptions): {
  app: Express;
  upgrade: UpgradeListener;
  /** The kept connections to the API, closed with the server. */
  agent?: Agent;
} {
  if (!existsSync(path.join(opts.distDir, 'index.html'))) throw new MissingWebBuildError(opts.distDir);
  const app = express();
  app.disable('x-powered-by');
  // Connections to the API are kept and reused, so a call does not wait for a new one (upgraded WebSockets leave
  // the pool); an https API gets Node's default agent. An idle connection is closed here first: without a timeout
  // Node's agent keeps it until the API closes it (5 s idle by default), and a call sent on it in that instant fails
  // with ECONNRESET (a 502 to the browser). With one, the agent also honours the API's `Keep-Alive: timeout=N`
  // hint, closing a second before it.
  const agent = opts.apiUrl.startsWith('http:')
    ? new Agent({ keepAlive: true, timeout: API_IDLE_CLOSE_MS })
    : undefined;
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: opts.apiUrl,
    agent,
    changeOrigin: true,
    xfwd: true,
    ws: true,
    pathFilter: (pathname) => isApiPath(pathname),
    on: { error: (err, _req, res) => proxyFailed(err, res, opts.apiUrl) },
  });
  app.get('/config.json', (_req, res) => {
    res.set('Cache-Control', 'no-store').json(opts.console);
  });
  app.use(legacyRedirects);
  app.use(proxy);
  app.use(
    '/assets',
    express.static(path.join(opts.distDir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: true }),
  );
  app.use(express.static(opts.distDir, { index: false }));
  app.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || path.posix.extname(req.path) !== '') return next();
    pageHtml(opts.distDir, req.path).then(
      (html) => res.set('Cache-Control', 'no-cache').type('html').send(html),
      (err: unknown) => next(err),
    );
  });
  app.use((req, res) => {
    res.status(404).type('text/plain').send(`Not found: ${req.path}`);
  });
  const upgrade: UpgradeListener = (req, socket, head) => {
    if (isApiPath(req.url)) return proxy.upgrade(req, socket as never, head);
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  };
  return { app, upgrade, agent };
}

/**
 * index.html for a page path, naming the page's chunk files as modulepreloads when the build listed them
 * (page-chunks.json): read on each request, so a rebuild under a running server is served as built.
 */
async function pageHtml(distDir: string, pathname: string): Promise<string> {
  const html = await readFile(path.join(distDir, 'index.html'), 'utf8');
  let chunks: PageChunks;
  try {
    chunks = JSON.parse(await readFile(path.join(distDir, 'page-chunks.json'), 'utf8')) as PageChunks;
  } catch {
    return html; // an older build without the list: the page's chunk loads after the shell, as before
  }
  return withModulePreloads(html, pageFilesFor(chunks, pathname));
}

type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** The API did not answer: a 502 in the API's own error shape, so the console shows it like any error. */
function proxyFailed(err: Error, res: ServerResponse | Duplex, apiUrl: string): void {
  if (!('writeHead' in res)) return void res.destroy();
  if (res.headersSent) return void res.end();
  const body = {
    error: { code: 'API_UNREACHABLE', message: `The API at ${apiUrl} did not answer: ${err.message}`, details: [] },
  };
  res.writeHead(502, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

export interface RunningWebConsole {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Listens on host:port (port 0 picks a free one); the server also proxies WebSocket upgrades under `/api`. */
export async function startWebConsole(
  opts: WebConsoleOptions & { host: string; port: number },
): Promise<RunningWebConsole> {
  const { app, upgrade, agent } = createWebConsoleApp(opts);
  const server = createServer(app);
  // Proxied WebSockets leave the server's connection tracking once upgraded: close them with it.
  const sockets = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    upgrade(req, socket, head);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = ['0.0.0.0', '::'].includes(opts.host) ? 'localhost' : opts.host;
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        agent?.destroy();
      }),
  };
}

/**
 * `lakeward dev`'s console beside its API. A missing build or a busy port costs the console, not the stack: the
 * answer then says why it is not running.
 */
export async function startConsoleBesideApi(
  config: Config,
  apiUrl: string,
  distDir = DEFAULT_WEB_DIST,
): Promise<{ running?: RunningWebConsole; problem?: string }> {
  try {
    const running = await startWebConsole({
      distDir,
      apiUrl,
      console: consoleConfigOf(config),
      host: config.web.host,
      port: config.web.port,
    });
    return { running };
  } catch (err) {
    if (err instanceof MissingWebBuildError) return { problem: `${err.message} (the API runs without it)` };
    return { problem: `web console not started on web.port ${config.web.port}: ${(err as Error).message}` };
  }
}
