import { existsSync } from 'node:fs';
import { InvalidInputError, NotFoundError } from '../../errors';
import type { RestoreMetrics, TimeTravel } from '../../types';
import { removeOf, type Action } from './actions';
import { commit } from './commit';
import type { CommitContext } from './contract';
import { protocolFor, sameProtocol, schemaOf, sum, type Core } from './core';
import { resolveLogPath } from './paths';
import { checkTimeTravel } from './time-travel';

/** RESTORE TABLE t TO VERSION|TIMESTAMP AS OF: re-adds the old version's files, removes the rest. */
export async function restore(core: Core, to: TimeTravel, ctx?: CommitContext): Promise<RestoreMetrics> {
  checkTimeTravel(to);
  if (to?.version === undefined && to?.timestamp === undefined)
    throw new InvalidInputError('restore: give a version or a timestamp');
  const targetVersion = await core.reader.resolve(to);
  const target = await core.reader.stateAt(targetVersion ?? (await core.reader.latestVersion()));
  const current = await core.reader.stateAt();
  const now = Date.now();
  const restored = [...target.files.values()].filter((f) => !current.files.has(f.path));
  const removed = [...current.files.values()].filter((f) => !target.files.has(f.path));
  const missing = restored.filter((f) => !existsSync(resolveLogPath(core.dir, f.path)));
  if (missing.length > 0) {
    throw new NotFoundError(
      `cannot restore ${core.dir} to version ${target.version}: ${missing.length} data file(s) were removed by VACUUM (e.g. ${missing[0].path})`,
    );
  }
  const actions: Action[] = [];
  if (JSON.stringify(target.metadata) !== JSON.stringify(current.metadata)) actions.push({ metaData: target.metadata });
  const protocol = protocolFor(schemaOf(target.metadata), target.metadata.configuration, current.protocol);
  if (!sameProtocol(protocol, current.protocol)) actions.push({ protocol });
  actions.push(...removed.map((f) => ({ remove: removeOf(f, now) })));
  actions.push(...restored.map((f) => ({ add: { ...f, dataChange: true } })));
  const metrics: RestoreMetrics = {
    tableSizeAfterRestore: sum([...target.files.values()].map((f) => f.size)),
    numOfFilesAfterRestore: target.files.size,
    numRemovedFiles: removed.length,
    numRestoredFiles: restored.length,
    removedFilesSize: sum(removed.map((f) => f.size)),
    restoredFilesSize: sum(restored.map((f) => f.size)),
  };
  await commit(core.reader, {
    operation: 'RESTORE',
    operationParameters: to.timestamp !== undefined ? { timestamp: to.timestamp } : { version: String(target.version) },
    operationMetrics: {
      table_size_after_restore: metrics.tableSizeAfterRestore,
      num_of_files_after_restore: metrics.numOfFilesAfterRestore,
      num_removed_files: metrics.numRemovedFiles,
      num_restored_files: metrics.numRestoredFiles,
      removed_files_size: metrics.removedFilesSize,
      restored_files_size: metrics.restoredFilesSize,
    },
    readVersion: current.version,
    actions,
    ctx,
  });
  return metrics;
}
