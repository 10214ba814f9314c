import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, promises as fs, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ConflictError, NotFoundError } from '../../errors';
import type { Action } from './actions';
import { CHECKPOINT_RE, COMMIT_RE, commitFileName, logDir } from './paths';

export interface LogListing {
  /** Commit versions present, ascending. */
  commits: number[];
  /** Versions with a classic single-file checkpoint, ascending. */
  checkpoints: number[];
}

/*
 * Listing the log, reading a commit and publishing one are synchronous calls: a table operation makes several
 * of each, every one takes microseconds on a local disk, and the promise API's thread-pool round trips cost
 * more CPU and, on a busy machine, wait for the event loop each time (metastore/files.ts says more).
 */

/** Lists `_delta_log`; a missing folder yields empty lists. */
export async function listLog(tableDir: string): Promise<LogListing> {
  let names: string[];
  try {
    names = readdirSync(logDir(tableDir));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') {
      return { commits: [], checkpoints: [] };
    }
    throw err;
  }
  const commits: number[] = [];
  const checkpoints: number[] = [];
  for (const name of names) {
    const c = COMMIT_RE.exec(name);
    if (c) commits.push(Number(c[1]));
    const k = CHECKPOINT_RE.exec(name);
    if (k) checkpoints.push(Number(k[1]));
  }
  commits.sort((a, b) => a - b);
  checkpoints.sort((a, b) => a - b);
  return { commits, checkpoints };
}

export function parseCommit(text: string): Action[] {
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Action);
}

export async function readCommit(tableDir: string, version: number): Promise<Action[]> {
  const file = path.join(logDir(tableDir), commitFileName(version));
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new NotFoundError(`Delta log of ${tableDir} has no version ${version}`);
    }
    throw err;
  }
  return parseCommit(text);
}

/** Modification time of a commit file (fallback timestamp when a commit has no commitInfo). */
export async function commitMtime(tableDir: string, version: number): Promise<number> {
  return (await fs.stat(path.join(logDir(tableDir), commitFileName(version)))).mtimeMs;
}

/**
 * Writes commit `version` atomically and only if absent: the JSON goes to a temp file first, then
 * `link()` publishes it under its final name. link() fails with EEXIST when another writer got there
 * first, so a version is never overwritten and readers never see a half-written commit.
 */
export async function writeCommit(tableDir: string, version: number, actions: Action[]): Promise<void> {
  const dir = logDir(tableDir);
  mkdirSync(dir, { recursive: true });
  const final = path.join(dir, commitFileName(version));
  const tmp = path.join(dir, `.${commitFileName(version)}.${randomUUID()}.tmp`);
  writeFileSync(tmp, actions.map((a) => JSON.stringify(a)).join('\n') + '\n', { flag: 'wx' });
  try {
    linkSync(tmp, final);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new ConflictError(
        `concurrent update of Delta table ${tableDir}: version ${version} was committed by another writer`,
      );
    }
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
}
