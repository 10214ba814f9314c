import { InvalidInputError } from '../errors';
import type { ConvertMetrics, OptimizeMetrics, RestoreMetrics, TableRef, TimeTravel, VacuumResult } from '../types';
import { deltaEngine } from './delta-engine';
import { isIcebergTable, snapshotFiles } from './iceberg/table';
import type { TableEntry } from './metastore/types';
import { assertTimeTravel } from './workspace-clone';
import { dropTableEntry } from './workspace-containers';
import { fqnOf, type LocalContext } from './workspace-context';
import { asInputError } from './workspace-write-sql';
import path from 'node:path';

/** RESTORE, DROP, OPTIMIZE, VACUUM and CONVERT TO DELTA. */

async function touch(
  ctx: LocalContext,
  entry: TableEntry,
  change: (e: TableEntry) => void = () => undefined,
): Promise<void> {
  await ctx.store.update<TableEntry>(ctx.store.entryFile('tables', entry), fqnOf(entry), change);
}

export async function restoreTable(ctx: LocalContext, ref: TableRef, to: TimeTravel): Promise<RestoreMetrics> {
  const entry = await ctx.table(ctx.ref(ref));
  const at = assertTimeTravel(to ?? {});
  if (!at) throw new InvalidInputError('restore needs a version or a timestamp');
  try {
    const metrics = await (await ctx.delta(entry)).restore(at, { userName: ctx.user });
    await touch(ctx, entry);
    return metrics;
  } catch (err) {
    throw asInputError(err, `restore of ${fqnOf(entry)}`);
  }
}

export async function dropTable(ctx: LocalContext, ref: TableRef, opts: { ifExists?: boolean } = {}): Promise<void> {
  const r = ctx.ref(ref);
  const entry = await ctx.store.findEntry('tables', r);
  if (!entry) {
    if (opts.ifExists) return;
    await ctx.store.getEntry('tables', r);
  }
  if (entry!.kind !== 'TABLE') throw new InvalidInputError(`${fqnOf(r)} is a view (use dropView)`);
  await dropTableEntry(ctx, entry!);
}

export async function optimizeTable(ctx: LocalContext, ref: TableRef): Promise<OptimizeMetrics> {
  const entry = await ctx.table(ctx.ref(ref));
  const metrics = await (await ctx.delta(entry)).optimize({ userName: ctx.user });
  await touch(ctx, entry);
  return metrics;
}

/**
 * Files of `dir` that shallow clones registered in this workspace root still reference. Every table whose
 * entry records `shallowCloneOf` is opened and its current snapshot's absolute file paths under `dir` kept.
 * (Clones made in another root are not seen: cloneTable works within one workspace.)
 */
export async function shallowReferences(ctx: LocalContext, dir: string): Promise<Set<string>> {
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  const out = new Set<string>();
  for (const cat of await ctx.store.listCatalogNames()) {
    for (const sch of await ctx.store.listSchemaNames(cat)) {
      for (const t of await ctx.store.listEntries('tables', cat, sch)) {
        if (!t.shallowCloneOf || t.location === dir || t.format !== 'DELTA') continue;
        const snap = await (await ctx.delta(t)).snapshot().catch(() => null);
        for (const f of snap?.files ?? []) if (f.absolutePath.startsWith(prefix)) out.add(f.absolutePath);
      }
    }
  }
  return out;
}

export async function vacuumTable(
  ctx: LocalContext,
  ref: TableRef,
  opts: { retentionHours?: number; dryRun?: boolean } = {},
): Promise<VacuumResult> {
  const entry = await ctx.table(ctx.ref(ref));
  if (opts.retentionHours !== undefined && !(Number.isFinite(opts.retentionHours) && opts.retentionHours >= 0)) {
    throw new InvalidInputError(`retentionHours must be a non-negative number, got ${opts.retentionHours}`);
  }
  const table = await ctx.delta(entry);
  const protectedPaths = await shallowReferences(ctx, entry.location!);
  return table.vacuum({ retentionHours: opts.retentionHours, dryRun: opts.dryRun, protectedPaths });
}

export async function convertToDelta(ctx: LocalContext, ref: TableRef): Promise<ConvertMetrics> {
  const entry = await ctx.table(ctx.ref(ref));
  if (entry.format === 'DELTA') return { numConvertedFiles: 0 };
  let metrics: ConvertMetrics = { numConvertedFiles: 0 };
  try {
    // An Iceberg source lists its current snapshot's files (older snapshots' files are not table data).
    const iceberg = entry.format === 'ICEBERG' && (await isIcebergTable(entry.location!));
    const files = iceberg ? (await snapshotFiles(entry.location!)).map((f) => f.path) : undefined;
    const partitionTypes = Object.fromEntries((entry.columns ?? []).map((c) => [c.name, c.type]));
    metrics = await deltaEngine().convertParquet(entry.location!, { userName: ctx.user }, { files, partitionTypes });
  } catch (err) {
    throw asInputError(err, `convert of ${fqnOf(entry)}`);
  }
  const props = entry.properties;
  await touch(ctx, entry, (e) => {
    e.format = 'DELTA';
    delete e.columns;
    e.properties = {};
  });
  if (Object.keys(props).length)
    await (await deltaEngine().open(entry.location!)).updateMetadata({ setProperties: props }, { userName: ctx.user });
  return metrics;
}
