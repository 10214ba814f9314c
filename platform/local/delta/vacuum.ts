import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InvalidInputError } from '../../errors';
import type { VacuumResult } from '../../types';
import type { DeltaVacuumOptions } from './contract';
import type { Core } from './core';
import { classifyFiles, DEFAULT_RETENTION_HOURS, STAGING_PREFIX, vacuumDeletes } from './file-classes';
import { mapLimit } from './snapshot';

/**
 * VACUUM. Every file under the table folder is classified against the log (file-classes.ts) and deleted when
 * `vacuumDeletes` says so:
 *  - files the log removed, and change data files (`_change_data/`), whose removal / commit is older than
 *    now − retention;
 *  - files no commit names (orphans of failed or losing writers, the staging folders of crashed writes) once
 *    untouched for the retention window, so a write in progress is never disturbed;
 *  - temp files of data-file copies (`*.tmp-<uuid>`) once no live copy owns them, whatever the retention.
 * Never: the current snapshot's files, `protectedPaths` (files that shallow clones of this table still
 * reference), `_delta_log`, other `_`/`.`-prefixed entries, files outside the folder. Staging folders left empty
 * are removed too.
 */
export async function vacuum(core: Core, opts: DeltaVacuumOptions = {}): Promise<VacuumResult> {
  const retentionHours = opts.retentionHours ?? DEFAULT_RETENTION_HOURS;
  if (typeof retentionHours !== 'number' || !Number.isFinite(retentionHours) || retentionHours < 0) {
    throw new InvalidInputError(`retentionHours: ${retentionHours} must be a non-negative number`);
  }
  const now = opts.now ?? Date.now();
  const horizon = now - retentionHours * 3600_000;
  const files = await classifyFiles(core, { retentionHours, protectedPaths: opts.protectedPaths, now });
  const doomed = files.filter((f) => vacuumDeletes(f, horizon, Date.now()));
  if (!opts.dryRun) {
    await mapLimit(doomed, 8, (d) => fs.rm(d.file, { force: true }));
    const emptied = new Set(doomed.filter((d) => d.reason === 'staging').map((d) => d.relative.split('/')[0]));
    await removeEmptyStaging(path.resolve(core.dir), horizon, emptied);
  }
  return {
    dryRun: opts.dryRun ?? false,
    files: doomed.map((d) => d.relative),
    bytes: doomed.reduce((a, d) => a + d.size, 0),
  };
}

/** Staging folders of crashed writes that now hold no file: emptied by this VACUUM, or untouched for the window. */
async function removeEmptyStaging(root: string, horizon: number, emptied: Set<string>): Promise<void> {
  const names = await fs.readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(STAGING_PREFIX)) continue;
    const dir = path.join(root, name);
    if (await holdsFiles(dir)) continue;
    const stat = await fs.stat(dir).catch(() => null);
    if (stat && (emptied.has(name) || stat.mtimeMs < horizon)) await fs.rm(dir, { recursive: true, force: true });
  }
}

async function holdsFiles(dir: string): Promise<boolean> {
  for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (e.isFile()) return true;
    if (e.isDirectory() && (await holdsFiles(path.join(dir, e.name)))) return true;
  }
  return false;
}
