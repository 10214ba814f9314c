import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { E2E } from './stack';

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
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakeward-web-e2e-'));
  const lakeward = path.join(ROOT, 'bin/lakeward');
  const seed = spawnSync(lakeward, ['demo', 'seed', '--workspace', path.join(dataDir, 'workspace')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (seed.status !== 0) throw new Error(`demo seed failed: ${seed.stderr}${seed.stdout}`);
  const logFile = path.join(dataDir, 'dev.log');
  const out = fs.openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LAKEWARD_API_KEY: E2E.apiKey,
    LAKEWARD_WORKER_METRICS_PORT: '0',
    LAKEWARD_TEMPORAL_METRICS_PORT: '0',
  };
  delete env.DATABASE_URL; // the stack's own PGlite store in the data folder
  const child = spawn(
    lakeward,
    [
      'dev',
      '--data-dir',
      dataDir,
      '--port',
      String(E2E.apiPort),
      '--temporal-port',
      String(E2E.temporalPort),
      '--ui-port',
      String(E2E.temporalUiPort),
      '--web-port',
      String(E2E.webPort),
    ],
    { cwd: ROOT, env, stdio: ['ignore', out, out], detached: true },
  );
  const tail = () => fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
  try {
    await waitForHealth(E2E.webUrl, 150_000, tail);
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
