import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Core } from './core';
import { listLog, readCommit } from './log';
import { CHANGE_DATA_DIR } from './cdf-write';
import { tombstoneRetentionMs } from './checkpoint';
import { LOG_DIR, resolveLogPath } from './paths';
import { mapLimit } from './snapshot';
import { isStaleTempCopy, isTempCopy } from './temp-copies';

/** Where a table's file stands. Together the classes account for every file under the table folder. */
export type FileClass = 'active' | 'time_travel' | 'vacuumable';

export interface ClassifiedFile {
  /** Absolute path. */
  file: string;
  /** Path relative to the table folder, `/`-separated. */
  relative: string;
  size: number;
  mtimeMs: number;
  class: FileClass;
  /** Why: `log`, `iceberg_metadata`, `live`, `shallow_clone`, `hidden`, `removed`, `change_data`, `staging`, `temp_copy`, `untracked`. */
  reason: string;
  /** When the log removed it (tombstones) or committed it (change data files); null when the log never names it. */
  loggedAt: number | null;
}

export const DEFAULT_RETENTION_HOURS = 168;
/** Private folders of writers in progress (write-files.ts); a crashed write leaves one behind. */
export const STAGING_PREFIX = '_lakeward_staging_';

async function walk(dir: string, out: { file: string; size: number; mtimeMs: number }[]): Promise<void> {
  const names = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of names) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await walk(full, out);
    else if (entry.isFile()) {
      const stat = await fs.stat(full).catch(() => null);
      if (stat) out.push({ file: full, size: stat.size, mtimeMs: stat.mtimeMs });
    }
  }
}

/** Change data files named by `cdc` actions of the commits still in the log → their commit's timestamp. */
async function changeDataTimes(core: Core): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const { commits } = await listLog(core.dir);
  const parsed = await mapLimit(commits, 16, (v) => readCommit(core.dir, v).catch(() => []));
  for (const actions of parsed) {
    const ts = actions.find((a) => a.commitInfo)?.commitInfo?.timestamp;
    for (const a of actions) {
      if (a.cdc && typeof ts === 'number') out.set(resolveLogPath(core.dir, a.cdc.path), ts);
    }
  }
  return out;
}

/**
 * Every file under a Delta table's folder, classified against its log at `retentionHours`:
 * - active: the log itself (`_delta_log/…`), the current snapshot's files, removed files a shallow clone
 *   still references (`protectedPaths`), and other `_`/`.`-prefixed entries (not table data; never vacuumed);
 * - time_travel: files the log removed (tombstones) or change data files (`_change_data/`) whose commit is
 *   inside the retention window, so older versions can still be read;
 * - vacuumable: the same past the window, and every file no commit names (crashed writers' staging folders,
 *   temp files of interrupted copies, orphans).
 */
export async function classifyFiles(
  core: Core,
  opts: { retentionHours: number; protectedPaths?: ReadonlySet<string>; now: number },
): Promise<ClassifiedFile[]> {
  const root = path.resolve(core.dir);
  const horizon = opts.now - opts.retentionHours * 3600_000;
  const state = await core.reader.stateAt();
  const live = new Set([...state.files.values()].map((f) => resolveLogPath(root, f.path)));
  const removedAt = new Map<string, number>();
  for (const t of state.tombstones.values()) {
    if (typeof t.deletionTimestamp === 'number') removedAt.set(resolveLogPath(root, t.path), t.deletionTimestamp);
  }
  const files: { file: string; size: number; mtimeMs: number }[] = [];
  await walk(root, files);
  const hasChangeData = files.some((f) => path.relative(root, f.file).split(path.sep)[0] === CHANGE_DATA_DIR);
  const cdcAt = hasChangeData ? await changeDataTimes(core) : new Map<string, number>();
  const protectedPaths = opts.protectedPaths ?? new Set<string>();
  return files.map((f) => {
    const relative = path.relative(root, f.file).split(path.sep).join('/');
    const top = relative.split('/')[0];
    const out = (cls: FileClass, reason: string, loggedAt: number | null = null): ClassifiedFile => ({
      ...f,
      relative,
      class: cls,
      reason,
      loggedAt,
    });
    if (top === LOG_DIR) return out('active', 'log');
    // Iceberg metadata beside the log (UniForm, or kept by CONVERT TO DELTA from Iceberg): never a data file.
    if (top === 'metadata' && relative.includes('/')) return out('active', 'iceberg_metadata');
    if (live.has(f.file)) return out('active', 'live');
    if (protectedPaths.has(f.file)) return out('active', 'shallow_clone');
    const removed = removedAt.get(f.file);
    if (removed !== undefined) return out(removed >= horizon ? 'time_travel' : 'vacuumable', 'removed', removed);
    const cdc = cdcAt.get(f.file);
    if (cdc !== undefined) return out(cdc >= horizon ? 'time_travel' : 'vacuumable', 'change_data', cdc);
    if (top.startsWith(STAGING_PREFIX)) return out('vacuumable', 'staging');
    if (isTempCopy(f.file)) return out('vacuumable', 'temp_copy');
    // Other `_`/`.`-prefixed entries are not table data (Delta's VACUUM skips them too): kept, counted active.
    if (relative.split('/').some((seg) => seg.startsWith('_') || seg.startsWith('.'))) return out('active', 'hidden');
    return out('vacuumable', 'untracked');
  });
}

/**
 * What VACUUM deletes of the classified files: removed and change data files past the window; files no commit
 * names once untouched for the whole window (a writer may still be producing them); temp files of copies as soon
 * as no live copy owns them (temp-copies.ts). Active and time-travel files never.
 */
export function vacuumDeletes(f: ClassifiedFile, horizon: number, now: number): boolean {
  if (f.class !== 'vacuumable') return false;
  if (f.reason === 'temp_copy') return isStaleTempCopy(f.file, f.mtimeMs, now);
  if (f.loggedAt !== null) return true;
  return f.mtimeMs < horizon;
}

export interface StorageBreakdown {
  retentionHours: number;
  totalBytes: number;
  activeBytes: number;
  timeTravelBytes: number;
  vacuumableBytes: number;
  numTotalFiles: number;
  numActiveFiles: number;
  numTimeTravelFiles: number;
  numVacuumableFiles: number;
}

/** Byte and file sums per class, at the table's own retention (delta.deletedFileRetentionDuration, default 1 week). */
export async function storageBreakdown(
  core: Core,
  opts: { protectedPaths?: ReadonlySet<string>; now?: number } = {},
): Promise<StorageBreakdown> {
  const state = await core.reader.stateAt();
  const retentionHours = tombstoneRetentionMs(state) / 3600_000;
  const files = await classifyFiles(core, {
    retentionHours,
    protectedPaths: opts.protectedPaths,
    now: opts.now ?? Date.now(),
  });
  const of = (c: FileClass) => files.filter((f) => f.class === c);
  const bytes = (list: ClassifiedFile[]) => list.reduce((a, f) => a + f.size, 0);
  return {
    retentionHours,
    totalBytes: bytes(files),
    activeBytes: bytes(of('active')),
    timeTravelBytes: bytes(of('time_travel')),
    vacuumableBytes: bytes(of('vacuumable')),
    numTotalFiles: files.length,
    numActiveFiles: of('active').length,
    numTimeTravelFiles: of('time_travel').length,
    numVacuumableFiles: of('vacuumable').length,
  };
}
