import { closeSync, openSync, promises as fs, rmSync, writeSync } from 'node:fs';
import { TransientError } from '../../errors';

/**
 * Cross-process advisory lock on a file path: `open(lock, 'wx')` succeeds for exactly one process.
 * The API and a worker open the same workspace root, so every read-modify-write of a metastore file runs
 * under one of these. A lock whose holder died (pid gone on this host) or that was not refreshed for
 * `staleMs` (the holder touches it while working) is broken, so a crash never wedges the workspace.
 */
export interface LockOptions {
  staleMs?: number;
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function holderIsDead(text: string): boolean {
  const pid = Number(text.split(' ')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function breakIfStale(lockPath: string, staleMs: number): Promise<void> {
  try {
    const [stat, text] = await Promise.all([fs.stat(lockPath), fs.readFile(lockPath, 'utf8')]);
    if (Date.now() - stat.mtimeMs > staleMs || holderIsDead(text)) {
      // rename first: only one breaker wins, the others see ENOENT and simply retry.
      const aside = `${lockPath}.stale-${process.pid}-${Math.random().toString(36).slice(2)}`;
      await fs.rename(lockPath, aside);
      await fs.rm(aside, { force: true });
    }
  } catch {
    // The lock vanished or changed under us: just retry.
  }
}

export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const staleMs = opts.staleMs ?? 60_000;
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  // The lock file's create, write and remove are synchronous calls (microseconds each; see files.ts).
  let fd: number | null = null;
  for (let attempt = 0; fd === null; attempt++) {
    try {
      fd = openSync(lockPath, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (Date.now() > deadline) throw new TransientError(`timed out waiting for metastore lock ${lockPath}`);
      if (attempt % 20 === 19) await breakIfStale(lockPath, staleMs);
      await sleep(2 + Math.random() * Math.min(50, 2 * attempt));
    }
  }
  // Long holders (a deep clone inside a create) keep the lock fresh so waiters never think it stale.
  const refresh = setInterval(() => {
    const now = new Date();
    fs.utimes(lockPath, now, now).catch(() => undefined);
  }, staleMs / 3);
  refresh.unref();
  try {
    try {
      writeSync(fd, `${process.pid} ${new Date().toISOString()}`);
    } finally {
      closeSync(fd);
    }
    return await fn();
  } finally {
    clearInterval(refresh);
    rmSync(lockPath, { force: true });
  }
}
