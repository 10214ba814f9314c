import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { DEFAULT_PORT_BASE, E2E, portsOf } from './stack';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function waitForHealth(url: string, ms: number, log: () => string): Promise<void> {
  const until = Date.now() + ms;
  let last = '';
  while (Date.now() < until) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
      last = `answered ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the console at ${url} did not answer /api/health within ${ms / 1000} s (${last}):\n${log()}`);
}

/** True when nothing listens on 127.0.0.1:`port`. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first block of four free ports at or above `from`, in steps of 10. */
async function freePortBase(from: number): Promise<number> {
  for (let base = from; base < from + 1000; base += 10) {
    const free = await Promise.all([0, 1, 2, 3].map((i) => portFree(base + i)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no four free ports between ${from} and ${from + 1000}`);
}

/**
 * One embedded stack for the suite: seeds demo_sales into a fresh data folder, then runs `lakeward dev` with the
 * console (web/dist, built by `npm run test:web`) on private ports and an API key. LAKEWARD_E2E_URL reuses a
 * running stack instead.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.LAKEWARD_E2E_URL) return async () => {};
  const chromium = process.env.LAKEWARD_CHROMIUM ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    throw new Error(
      `no chromium at ${chromium}: install Debian's chromium (apt-get install chromium) or set LAKEWARD_CHROMIUM`,
    );
  }
  if (!fs.existsSync(path.join(ROOT, 'web/dist/index.html')))
    throw new Error('web/dist is missing: run npm run web:build');
  // A block of free ports (a server left on one by an earlier run would otherwise answer for this stack); the
  // test workers start after this and read the base from the environment.
  const base = process.env.LAKEWARD_E2E_PORT_BASE
    ? Number(process.env.LAKEWARD_E2E_PORT_BASE)
    : await freePortBase(DEFAULT_PORT_BASE);
  process.env.LAKEWARD_E2E_PORT_BASE = String(base);
  const ports = portsOf(base);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakeward-web-e2e-'));
  const lakeward = path.join(ROOT, 'bin/lakeward');
  const seed = spawnSync(lakeward, ['demo', 'seed', '--workspace', path.join(dataDir, 'workspace')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (seed.status !== 0) throw new Error(`demo seed failed: ${seed.stderr}${seed.stdout}`);
  const logFile = path.join(dataDir, 'dev.log');
  const out = fs.openSync(logFile, 'a');
  // Beside the admin key, a viewer key (the role tests): keys with roles come from the config file.
  const configFile = path.join(dataDir, 'lakeward.yaml');
  fs.writeFileSync(
    configFile,
    'api_server:\n  keys:\n    - name: e2e-viewer\n      key_env: LAKEWARD_E2E_VIEWER_KEY\n      role: viewer\n',
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LAKEWARD_E2E_VIEWER_KEY: E2E.viewerKey,
    LAKEWARD_API_KEY: E2E.apiKey,
    LAKEWARD_WORKER_METRICS_PORT: '0',
    LAKEWARD_TEMPORAL_METRICS_PORT: '0',
  };
  delete env.DATABASE_URL; // the stack's own PGlite store in the data folder
  const child = spawn(
    lakeward,
    [
      'dev',
      '--config',
      configFile,
      '--data-dir',
      dataDir,
      '--port',
      String(ports.apiPort),
      '--temporal-port',
      String(ports.temporalPort),
      '--ui-port',
      String(ports.temporalUiPort),
      '--web-port',
      String(ports.webPort),
    ],
    { cwd: ROOT, env, stdio: ['ignore', out, out], detached: true },
  );
  const tail = () => fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
  try {
    await waitForHealth(ports.webUrl, 150_000, tail);
  } catch (err) {
    process.kill(-child.pid!, 'SIGKILL');
    throw err;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return async () => {
    // SIGTERM lets the stack stop its Temporal dev server (which runs in its own session); SIGKILL after 30 s.
    process.kill(-child.pid!, 'SIGTERM');
    const stopped = await Promise.race([
      exited.then(() => true),
      new Promise((r) => setTimeout(() => r(false), 30_000)),
    ]);
    if (!stopped) process.kill(-child.pid!, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
