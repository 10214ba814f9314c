import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { TableRef, TableStorageMetrics } from '../types';
import { shallowReferences } from './workspace-maintenance';
import type { LocalContext } from './workspace-context';

/** Every file below `dir` (all of it, `_`/`.`-prefixed entries included) with its size. */
async function allFiles(dir: string): Promise<{ file: string; size: number }[]> {
  const out: { file: string; size: number }[] = [];
  const walk = async (d: string) => {
    for (const e of await fs.readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) {
        const s = await fs.stat(p).catch(() => null);
        if (s) out.push({ file: p, size: s.size });
      }
    }
  };
  await walk(dir);
  return out;
}

/**
 * Storage of a local table. Delta: every file under the folder classified against the log (active, time travel,
 * vacuumable; delta/file-classes.ts), files shallow clones still reference counted active. Parquet and Iceberg
 * tables keep no removed files Lakeward could vacuum: every file under the folder is active.
 */
export async function storageMetrics(ctx: LocalContext, ref: TableRef): Promise<TableStorageMetrics> {
  const entry = await ctx.table(ctx.ref(ref));
  if (entry.format === 'DELTA') {
    const table = await ctx.delta(entry);
    const b = await table.storage({ protectedPaths: await shallowReferences(ctx, entry.location!) });
    return { ...b, exact: true, note: null };
  }
  const files = await allFiles(entry.location!);
  const bytes = files.reduce((a, f) => a + f.size, 0);
  return {
    retentionHours: null,
    totalBytes: bytes,
    activeBytes: bytes,
    timeTravelBytes: 0,
    vacuumableBytes: 0,
    numTotalFiles: files.length,
    numActiveFiles: files.length,
    numTimeTravelFiles: 0,
    numVacuumableFiles: 0,
    exact: true,
    note: null,
  };
}
