import { randomUUID } from 'node:crypto';
import { promises as fs, rmSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Temp files of data-file copies (`<dest>.tmp-<uuid>`, renamed to `<dest>` when whole). A worker killed during a
 * copy leaves one behind; nothing references it, so whoever next clones into the table or vacuums it removes it,
 * unless a live copy still owns it. A copy in this process owns its temp file through `live`; a copy in another
 * process proves it is alive by touching its temp file every LEASE_TOUCH_MS, so a temp file untouched for
 * LEASE_MS has no living owner (the clone activity's heartbeat timeout, 10 s, is longer: a retry after a killed
 * worker always finds its temp files stale).
 */
export const LEASE_MS = 5_000;
const LEASE_TOUCH_MS = 1_000;

const TEMP_RE = /\.tmp-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const live = new Set<string>();

export function isTempCopy(file: string): boolean {
  return TEMP_RE.test(file);
}

/**
 * Runs `write(tmp)` with a fresh temp name for `dest`, owned (in this process and by lease) until it returns.
 * The temp file is removed whatever happens; the caller renames it to `dest` inside `write`.
 */
export async function withTempCopy(dest: string, write: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = `${dest}.tmp-${randomUUID()}`;
  const owned = path.resolve(tmp);
  live.add(owned);
  const lease = setInterval(() => {
    const now = new Date();
    fs.utimes(tmp, now, now).catch(() => undefined); // not created yet, or already renamed
  }, LEASE_TOUCH_MS);
  lease.unref();
  try {
    await write(tmp);
  } finally {
    clearInterval(lease);
    live.delete(owned);
    rmSync(tmp, { force: true }); // usually renamed already: one failing unlink, microseconds
  }
}

/** A temp copy no live copy owns: not ours, and not touched within the lease. */
export function isStaleTempCopy(file: string, mtimeMs: number, now: number): boolean {
  return isTempCopy(file) && !live.has(path.resolve(file)) && now - mtimeMs >= LEASE_MS;
}

/** Temp copies under `dir` (partition folders included; `_`/`.`-prefixed entries skipped, as VACUUM does). */
async function listTempCopies(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('_') || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listTempCopies(full)));
    else if (entry.isFile() && isTempCopy(entry.name)) out.push(full);
  }
  return out;
}

/** Removes the stale temp copies of the table in `dir`; returns their paths. */
export async function removeStaleTempCopies(dir: string, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const file of await listTempCopies(path.resolve(dir))) {
    const stat = await fs.stat(file).catch(() => null);
    if (!stat || !isStaleTempCopy(file, stat.mtimeMs, now)) continue;
    await fs.rm(file, { force: true });
    removed.push(file);
  }
  return removed;
}
