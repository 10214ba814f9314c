import type { OptimizeMetrics } from '../../types';
import { removeOf, type Action, type AddAction } from './actions';
import { commit } from './commit';
import type { CommitContext } from './contract';
import { schemaOf, sum, type Core } from './core';
import { scanOfLogFiles } from './scan-files';
import { duckIdent } from '../duck';
import { writeDataFiles } from './write-files';

/**
 * OPTIMIZE (bin-packing): in every partition with more than one file, all files are rewritten into one.
 * The commit has dataChange=false (no rows change, so CDF and streaming readers ignore it). With nothing
 * to compact no version is written, as in Delta.
 */
export async function optimize(core: Core, ctx?: CommitContext): Promise<OptimizeMetrics> {
  const state = await core.reader.stateAt();
  const schema = schemaOf(state.metadata);
  const groups = new Map<string, AddAction[]>();
  for (const f of state.files.values()) {
    const key = JSON.stringify(state.metadata.partitionColumns.map((p) => f.partitionValues[p] ?? null));
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const compact = [...groups.values()].filter((g) => g.length > 1).flat();
  if (compact.length === 0) return { numFilesAdded: 0, numFilesRemoved: 0, bytesAdded: 0, bytesRemoved: 0 };
  const now = Date.now();
  const scan = await scanOfLogFiles(core.dir, schema, state.metadata.partitionColumns, compact);
  const written = await writeDataFiles(
    core.dir,
    `SELECT ${schema.map((f) => duckIdent(f.name)).join(', ')} FROM ${scan} AS t`,
    {
      schema,
      partitionColumns: state.metadata.partitionColumns,
      now,
    },
  );
  const metrics: OptimizeMetrics = {
    numFilesAdded: written.length,
    numFilesRemoved: compact.length,
    bytesAdded: sum(written.map((f) => f.add.size)),
    bytesRemoved: sum(compact.map((f) => f.size)),
  };
  const actions: Action[] = [
    ...compact.map((f) => ({ remove: removeOf(f, now, false) })),
    ...written.map((f) => ({ add: { ...f.add, dataChange: false } })),
  ];
  await commit(core.reader, {
    operation: 'OPTIMIZE',
    operationParameters: { predicate: '[]', zOrderBy: '[]' },
    operationMetrics: {
      numAddedFiles: metrics.numFilesAdded,
      numRemovedFiles: metrics.numFilesRemoved,
      numAddedBytes: metrics.bytesAdded,
      numRemovedBytes: metrics.bytesRemoved,
    },
    readVersion: state.version,
    actions,
    ctx,
  });
  return metrics;
}
