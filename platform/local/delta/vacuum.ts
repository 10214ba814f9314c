import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InvalidInputError } from '../../errors';
import type { VacuumResult } from '../../types';
import type { DeltaVacuumOptions } from './contract';
import type { Core } from './core';
import { resolveLogPath } from './paths';
import { mapLimit } from './snapshot';
import { isStaleTempCopy, isTempCopy } from './temp-copies';

const DEFAULT_RETENTION_HOURS = 168;

/** Every file under `dir`, skipping `_`/`.`-prefixed entries (`_delta_log`, `_change_data`, staging, hidden). */
async function listDataFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('_') || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listDataFiles(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/**
 * VACUUM. A file in the table folder is deleted when ALL of these hold:
 *  - it is not referenced by the current snapshot;
 *  - it is not in `protectedPaths` (files that shallow clones of this table still reference);
 *  - its removal time is older than now − retention, where the removal time is the tombstone's
 *    deletionTimestamp when the log removed it, or the file's mtime for files the log never tracked
 *    (orphans of failed or losing writers, copies in progress).
 * `_delta_log` and every `_`- or `.`-prefixed entry are never listed, so never touched; files outside the
 * folder (absolute paths of a shallow clone) are never touched either.
 * Temp files of data-file copies (`*.tmp-<uuid>`) follow their own rule whatever the retention: removed once no
 * live copy owns them (a worker killed mid-copy left them), kept while one does (temp-copies.ts).
 */
export async function vacuum(core: Core, opts: DeltaVacuumOptions = {}): Promise<VacuumResult> {
  const retentionHours = opts.retentionHours ?? DEFAULT_RETENTION_HOURS;
  if (typeof retentionHours !== 'number' || !Number.isFinite(retentionHours) || retentionHours < 0) {
    throw new InvalidInputError(`retentionHours: ${retentionHours} must be a non-negative number`);
  }
  const now = opts.now ?? Date.now();
  const horizon = now - retentionHours * 3600_000;
  const state = await core.reader.stateAt();
  const live = new Set([...state.files.values()].map((f) => resolveLogPath(core.dir, f.path)));
  const removedAt = new Map<string, number>();
  for (const t of state.tombstones.values()) {
    if (typeof t.deletionTimestamp === 'number') removedAt.set(resolveLogPath(core.dir, t.path), t.deletionTimestamp);
  }
  const protectedPaths = opts.protectedPaths ?? new Set<string>();
  const doomed: { file: string; size: number }[] = [];
  for (const file of await listDataFiles(path.resolve(core.dir))) {
    if (live.has(file) || protectedPaths.has(file)) continue;
    const stat = await fs.stat(file).catch(() => null);
    if (!stat) continue; // a temp copy renamed or removed meanwhile
    if (isTempCopy(file)) {
      if (isStaleTempCopy(file, stat.mtimeMs, Date.now())) doomed.push({ file, size: stat.size });
    } else if ((removedAt.get(file) ?? stat.mtimeMs) < horizon) doomed.push({ file, size: stat.size });
  }
  if (!opts.dryRun) await mapLimit(doomed, 8, (d) => fs.rm(d.file, { force: true }));
  return {
    dryRun: opts.dryRun ?? false,
    files: doomed.map((d) => path.relative(path.resolve(core.dir), d.file).split(path.sep).join('/')),
    bytes: doomed.reduce((a, d) => a + d.size, 0),
  };
}
