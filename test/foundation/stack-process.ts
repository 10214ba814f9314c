import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

export const LAKEWARD_BIN = path.resolve(__dirname, '../../bin/lakeward');

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs bin/lakeward with the given args; the environment drops cluster and database settings. */
export function spawnLakeward(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess & { output: () => string } {
  const { DATABASE_URL: _db, TEMPORAL_ADDRESS: _ta, LAKEWARD_API_KEY: _key, ...rest } = process.env;
  const child = spawn(LAKEWARD_BIN, args, { env: { ...rest, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return Object.assign(child, { output: () => out });
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Direct children of `pid` as [pid, command line]. */
export function childProcesses(pid: number): [number, string][] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' }).trim();
  return out
    ? out.split('\n').map((line) => {
        const m = /^\s*(\d+)\s+(.*)$/.exec(line)!;
        return [Number(m[1]), m[2]];
      })
    : [];
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitFor<T>(fn: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
