import { promises as fs } from 'node:fs';
import path from 'node:path';

/** JSON files written atomically (temp file + rename), so a reader in another process never sees half a file. */
export async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  await fs.writeFile(tmp, JSON.stringify(value, null, 2));
  try {
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

export async function exists(p: string): Promise<boolean> {
  try {
    await fs.access(p);
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
