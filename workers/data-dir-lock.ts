import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * One stack per data folder: the Temporal SQLite file and the PGlite store must not be opened by two
 * processes. The lock file holds the owner's pid; a lock left by a dead process is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'lakeward.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(`another Lakeward stack (pid ${owner}) is using ${dataDir}; stop it or pass --data-dir`);
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
