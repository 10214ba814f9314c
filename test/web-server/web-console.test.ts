import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../../api/server';
import { loadConfig } from '../../config/load';
import type { Store } from '../../store/db';
import { createJob } from '../../store/jobs/jobs';
import {
  consoleConfigOf,
  createWebConsoleApp,
  MissingWebBuildError,
  startConsoleBesideApi,
  startWebConsole,
  webApiUpstream,
  type RunningWebConsole,
} from '../../workers/web-console';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';
import { eventually } from '../helpers/eventually';

const run = promisify(execFile);

/** A port the system just handed out and released (config ports start at 1, so 0 cannot be configured). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
const ROOT = path.resolve(__dirname, '../..');
const KEY = 'web-console-key';
const INDEX = '<!doctype html><title>Lakeward</title><div id="root"></div>';
const CONSOLE = { api_url: '', temporal_ui_url: 'http://temporal.example:8233', namespace: 'lakeward-test' };

let dist: string;
let store: Store;
let api: RunningServer;
let web: RunningWebConsole;
beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'lakeward-web-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'assets', 'index-3f2a9c.js'), 'console.log("console");');
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  store = await createTestStore();
  api = await startServer(testAppDeps({ store, env: { LAKEWARD_API_KEY: KEY } }), { host: '127.0.0.1', port: 0 });
  web = await startWebConsole({ distDir: dist, apiUrl: api.url, console: CONSOLE, host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await web?.close();
  await api?.close(500);
  await store?.close();
  rmSync(dist, { recursive: true, force: true });
});

test('serves the built files, and index.html for any page path (single-page fallback)', async () => {
  const root = await request(web.url).get('/').expect(200);
  expect(root.text).toBe(INDEX);
  const deep = await request(web.url).get('/catalogs/demo_sales/sales/orders').expect(200);
  expect(deep.text).toBe(INDEX);
  expect(deep.headers['content-type']).toMatch(/text\/html/);
  expect(deep.headers['cache-control']).toBe('no-cache');

  const asset = await request(web.url).get('/assets/index-3f2a9c.js').expect(200);
  expect(asset.text).toBe('console.log("console");');
  expect(asset.headers['cache-control']).toMatch(/max-age=31536000.*immutable/);
  await request(web.url).get('/favicon.svg').expect(200);
  // A stale asset URL must not get HTML back (the browser would try to run it as a script).
  const stale = await request(web.url).get('/assets/index-000000.js').expect(404);
  expect(stale.text).not.toContain('<div id="root">');
});

test('/config.json tells the console its API, the Temporal Web UI and the namespace', async () => {
  const res = await request(web.url).get('/config.json').expect(200);
  expect(res.body).toEqual(CONSOLE);
  expect(res.headers['cache-control']).toBe('no-store');
});

test('/config.json comes from the configuration: temporal.ui_url, else the embedded dev UI; none for a cluster', () => {
  const embedded = loadConfig({ env: { LAKEWARD_WEB_PORT: '8123' }, flags: {} });
  expect(embedded.web.port).toBe(8123);
  expect(consoleConfigOf(embedded)).toEqual({
    api_url: '',
    temporal_ui_url: 'http://localhost:8233',
    namespace: 'default',
  });
  expect(webApiUpstream(embedded)).toBe('http://127.0.0.1:8080');
  const cluster = loadConfig({ env: { TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_NAMESPACE: 'prod' }, flags: {} });
  expect(consoleConfigOf(cluster)).toMatchObject({ temporal_ui_url: null, namespace: 'prod' });
  const flagged = loadConfig({
    env: { LAKEWARD_WEB_PORT: '8123' },
    flags: { webPort: '9000', webApiUrl: 'https://api.example.com/' },
  });
  expect(flagged.web.port).toBe(9000);
  expect(webApiUpstream(flagged)).toBe('https://api.example.com');
  expect(() => loadConfig({ env: { LAKEWARD_WEB_PORT: 'eighty' }, flags: {} })).toThrow(
    /web\.port.*from LAKEWARD_WEB_PORT/,
  );
});

test('the old convert slug answers 301 to /convert, keeping the rest of the path and the query', async () => {
  const plain = await request(web.url).get('/convert-to-delta').expect(301);
  expect(plain.headers.location).toBe('/convert');
  const sub = await request(web.url).get('/convert-to-delta/history?table=a.b.c').expect(301);
  expect(sub.headers.location).toBe('/convert/history?table=a.b.c');
  // Only that slug: a page whose name merely starts the same is a page.
  await request(web.url).get('/convert-to-deltas').expect(200);
});

test('/api calls are proxied to the API on the same origin, with the caller’s key', async () => {
  const health = await request(web.url).get('/api/health').expect(200);
  expect(health.body).toMatchObject({ service: 'lakeward', status: expect.any(String) });
  // The API's config has no Temporal cluster: the embedded dev server's Web UI.
  expect(health.body.temporal_ui_url).toBe('http://localhost:8233');
  const refused = await request(web.url).get('/api/jobs').expect(401);
  expect(refused.body.error.code).toBe('UNAUTHORIZED');
  const jobs = await request(web.url)
    .get('/api/jobs')
    .set('Authorization', `Bearer ${KEY}`)
    .set('X-Request-Id', 'console-call-1')
    .expect(200);
  // The caller's request id reaches the API through the proxy and the API's echo comes back.
  expect(jobs.headers['x-request-id']).toBe('console-call-1');
});

test('a job WebSocket is proxied both ways (status snapshot, ping → pong) with ?api_key=', async () => {
  const jobId = `clone-20261124-101500-${Math.random().toString(16).slice(2, 6)}`;
  await createJob(store.db, {
    jobId,
    jobType: 'clone',
    status: 'queued',
    sourceCatalog: 'web_src',
    destinationCatalog: 'web_dst',
  });
  const wsBase = web.url.replace('http', 'ws');
  const messages = await new Promise<string[]>((resolve, reject) => {
    const ws = new WebSocket(`${wsBase}/api/jobs/ws/${jobId}?api_key=${KEY}`);
    const seen: string[] = [];
    ws.on('message', (data) => {
      seen.push(data.toString());
      if (seen.length === 1) ws.send('ping');
      if (data.toString() === 'pong') ws.close();
    });
    ws.on('close', () => resolve(seen));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', reject);
  });
  expect(JSON.parse(messages[0])).toMatchObject({ type: 'status', job_id: jobId, status: 'queued' });
  expect(messages).toContain('pong');

  const refused = await new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(`${wsBase}/api/jobs/ws/${jobId}?api_key=wrong`);
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => reject(new Error('opened with a wrong key')));
    ws.on('error', reject);
  });
  expect(refused).toBe(401);
});

test('an API that does not answer gives a 502 in the API’s error shape', async () => {
  const { app } = createWebConsoleApp({ distDir: dist, apiUrl: 'http://127.0.0.1:9', console: CONSOLE });
  const res = await request(app).get('/api/health').expect(502);
  expect(res.body.error).toMatchObject({ code: 'API_UNREACHABLE', message: expect.stringContaining('127.0.0.1:9') });
});

test('an idle kept connection to the API is closed by the console before the API would close it', async () => {
  // A request sent on a connection in the instant its server closes it fails with ECONNRESET (a 502 in the
  // browser); the console must drop idle connections first. The API here announces `Keep-Alive: timeout=3`.
  const closed: number[] = [];
  let answeredAt = 0;
  const upstream = createHttpServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}', () => void (answeredAt = Date.now()));
  });
  upstream.keepAliveTimeout = 3_000;
  upstream.on('connection', (socket) => socket.on('close', () => closed.push(Date.now())));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { app, agent } = createWebConsoleApp({
    distDir: dist,
    apiUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    console: CONSOLE,
  });
  try {
    // As a browser asks (supertest's default is `Connection: close`, which the proxy passes on).
    await request(app).get('/api/health').set('Connection', 'keep-alive').expect(200);
    const closedAt = await eventually(() => closed[0], {
      what: 'the proxied connection to the API to close',
      timeoutMs: 6_000,
    });
    // Closed by the console (the hint's 3 s less one), not by the API's own 3 s timer.
    expect(closedAt - answeredAt).toBeLessThan(2_700);
    // The next call opens a new connection and is answered.
    await request(app).get('/api/health').expect(200);
  } finally {
    agent?.destroy();
    await new Promise((resolve) => upstream.close(resolve));
  }
});

test('without a build it says to run npm run web:build (module and `lakeward web`)', async () => {
  const missing = path.join(dist, 'not-built');
  expect(() => createWebConsoleApp({ distDir: missing, apiUrl: api.url, console: CONSOLE })).toThrow(
    MissingWebBuildError,
  );
  const cli = await run(path.join(ROOT, 'bin/lakeward'), ['web', '--dist', missing, '--port', '18000'], {
    cwd: ROOT,
    env: { ...process.env, LAKEWARD_CONFIG: '' },
  }).then(
    () => ({ code: 0, stderr: '' }),
    (err: { code: number; stderr: string }) => err,
  );
  expect(cli.code).toBe(2);
  expect(cli.stderr).toContain('run `npm run web:build`');
  expect(cli.stderr).toContain(path.join(missing, 'index.html'));
}, 60_000);

test('lakeward dev: the console beside the API, or a line saying why not (no build, busy port)', async () => {
  const config = loadConfig({ env: {}, flags: { webPort: String(web.port) } });
  // web.port is taken by the console this file started: dev carries on without a second one and says why.
  const busy = await startConsoleBesideApi(config, api.url, dist);
  expect(busy.running).toBeUndefined();
  expect(busy.problem).toMatch(new RegExp(`web console not started on web.port ${web.port}: .*EADDRINUSE`));
  const unbuilt = await startConsoleBesideApi(config, api.url, path.join(dist, 'not-built'));
  expect(unbuilt.problem).toContain('run `npm run web:build` (the API runs without it)');

  const port = await freePort();
  const free = loadConfig({ env: { LAKEWARD_WEB_PORT: String(port) }, flags: {} });
  const beside = await startConsoleBesideApi(free, api.url, dist);
  try {
    expect(beside.problem).toBeUndefined();
    expect(beside.running!.url).toBe(`http://127.0.0.1:${port}`);
    const health = await request(beside.running!.url).get('/api/health').expect(200);
    expect(health.body.service).toBe('lakeward');
  } finally {
    await beside.running?.close();
  }
});

test('lakeward web --port --api-url serves the build and proxies to that API until SIGTERM', async () => {
  const port = await freePort();
  const child = spawn(
    path.join(ROOT, 'bin/lakeward'),
    ['web', '--dist', dist, '--port', String(port), '--api-url', api.url],
    {
      cwd: ROOT,
      env: { ...process.env, LAKEWARD_CONFIG: '', LAKEWARD_WEB_PORT: '1' },
    },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await eventually(() => stderr.includes(`console at http://127.0.0.1:${port}`), {
      what: `lakeward web to listen on ${port}`,
      timeoutMs: 60_000,
    });
    expect(stderr).toContain(`(API ${api.url})`);
    const config = await request(`http://127.0.0.1:${port}`).get('/config.json').expect(200);
    expect(config.body).toEqual({ api_url: '', temporal_ui_url: 'http://localhost:8233', namespace: 'default' });
    await request(`http://127.0.0.1:${port}`).get('/api/health').expect(200);
    expect((await request(`http://127.0.0.1:${port}`).get('/jobs').expect(200)).text).toBe(INDEX);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
}, 90_000);
