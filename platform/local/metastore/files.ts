import { accessSync, mkdirSync, promises as fs, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/*
 * Metastore entries are small JSON files on a local disk, and one table operation reads or writes a dozen
 * of them. Their reads and writes are synchronous calls: each takes microseconds, where the promise API
 * costs four to five thread-pool round trips per file (open, stat, read, close), and on a busy two-core
 * machine each round trip waits for the event loop to be scheduled again (measured in bench/clone-catalog.ts:
 * a deep clone's per-table steps between two copies). Folder listings and removals stay asynchronous.
 */

/** JSON files written atomically (temp file + rename), so a reader in another process never sees half a file. */
export async function readJson<T>(file: string): Promise<T | null> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return JSON.parse(text) as T;
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  writeFileSync(tmp, JSON.stringify(value, null, 2));
  try {
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

export async function exists(p: string): Promise<boolean> {
  try {
    accessSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Names of `*.json` files in a folder (without extension); none when the folder is absent. */
export async function listJsonNames(dir: string): Promise<string[]> {
  try {
    const names = await fs.readdir(dir);
    return names
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -5))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Removes a folder by first renaming it aside, so readers never see a half-deleted table. */
export async function removeDir(dir: string): Promise<void> {
  const aside = `${dir}.deleting-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await fs.rename(dir, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  await fs.rm(aside, { recursive: true, force: true });
}
