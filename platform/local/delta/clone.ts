import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { AlreadyExistsError, InvalidInputError } from '../../errors';
import type { CloneMetrics } from '../../types';
import type { Action, AddAction, ProtocolAction } from './actions';
import { removeOf } from './actions';
import { commit } from './commit';
import type { CommitContext, DeltaCloneOptions } from './contract';
import { protocolFor, schemaOf, sum, type Core } from './core';
import { copyFileFast } from './file-copy';
import { listLog } from './log';
import { encodeRelative, fileUri, isAbsoluteUri, resolveLogPath } from './paths';
import { LogReader, mapLimit } from './snapshot';
import type { TableState } from './state';
import { removeStaleTempCopies, withTempCopy } from './temp-copies';

/** Parallel copies: enough to keep a disk busy, few enough for a 2-core machine. */
const COPY_PARALLELISM = 4;

/** A metadata call of microseconds: synchronous (see delta/log.ts). */
function sizeOf(file: string): number | null {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}

/**
 * Copies via a temp name and a rename, so a half-copied file never carries the final name: a re-run sees
 * either the complete file (and skips it) or nothing. See copyFileFast for how the bytes move.
 */
async function copyOne(src: string, dest: string, size: number): Promise<void> {
  mkdirSync(path.dirname(dest), { recursive: true });
  await withTempCopy(dest, async (tmp) => {
    await copyFileFast(src, tmp, size);
    renameSync(tmp, dest);
  });
}

function checkOptions(source: Core, targetDir: string, opts: DeltaCloneOptions): void {
  if (opts.mode !== 'DEEP' && opts.mode !== 'SHALLOW')
    throw new InvalidInputError(`mode: '${String(opts.mode)}' must be DEEP or SHALLOW`);
  if (!targetDir || path.resolve(targetDir) === path.resolve(source.dir))
    throw new InvalidInputError('targetDir: must differ from the source table folder');
  for (const [k, v] of Object.entries(opts.properties ?? {})) {
    if (typeof v !== 'string') throw new InvalidInputError(`properties: value of '${k}' must be a string`);
  }
}

/** A replaced table's protocol is never downgraded. */
function higherProtocol(a: ProtocolAction, b: ProtocolAction | undefined): ProtocolAction {
  if (!b) return a;
  return b.minReaderVersion > a.minReaderVersion || b.minWriterVersion > a.minWriterVersion ? b : a;
}

/** Where a source file lives in the target: deep clones keep relative names (so re-clones can match them). */
function targetPath(source: Core, add: AddAction, mode: 'DEEP' | 'SHALLOW'): string {
  if (mode === 'SHALLOW') return isAbsoluteUri(add.path) ? add.path : fileUri(resolveLogPath(source.dir, add.path));
  return isAbsoluteUri(add.path) ? encodeRelative(path.basename(resolveLogPath(source.dir, add.path))) : add.path;
}

/** CREATE [OR REPLACE] TABLE target {DEEP|SHALLOW} CLONE source [VERSION|TIMESTAMP AS OF]. */
export async function cloneTo(
  source: Core,
  targetDir: string,
  opts: DeltaCloneOptions,
  ctx?: CommitContext,
): Promise<CloneMetrics> {
  checkOptions(source, targetDir, opts);
  const sourceState = await source.reader.stateAt(await source.reader.resolve(opts));
  const target: Core = { dir: targetDir, reader: new LogReader(targetDir) };
  let existing: TableState | null = null;
  if ((await listLog(targetDir)).commits.length > 0) {
    if (!opts.replace) throw new AlreadyExistsError(`a Delta table already exists at ${targetDir}`);
    existing = await target.reader.stateAt();
  }
  mkdirSync(targetDir, { recursive: true });
  // A copy killed with its worker left temp files here; this (re)run owns none of them.
  await removeStaleTempCopies(targetDir);
  const now = Date.now();
  const wanted = new Map<string, AddAction>();
  for (const add of sourceState.files.values()) wanted.set(targetPath(source, add, opts.mode), add);

  const adds: AddAction[] = [];
  const copies: { src: string; dest: string; size: number }[] = [];
  for (const [to, add] of wanted) {
    if (existing?.files.has(to)) continue;
    adds.push({ ...add, path: to, modificationTime: now, dataChange: true });
    if (opts.mode === 'SHALLOW') continue;
    const dest = resolveLogPath(targetDir, to);
    if (sizeOf(dest) !== add.size) copies.push({ src: resolveLogPath(source.dir, add.path), dest, size: add.size });
  }
  await mapLimit(copies, COPY_PARALLELISM, (c) => copyOne(c.src, c.dest, c.size));
  const removed = existing ? [...existing.files.values()].filter((f) => !wanted.has(f.path)) : [];

  const configuration = { ...sourceState.metadata.configuration, ...(opts.properties ?? {}) };
  const metadata = {
    ...sourceState.metadata,
    id: existing?.metadata.id ?? randomUUID(),
    name: null,
    description: null,
    configuration,
    createdTime: existing?.metadata.createdTime ?? now,
  };
  const metrics: CloneMetrics = {
    sourceTableSize: sum([...sourceState.files.values()].map((f) => f.size)),
    sourceNumOfFiles: sourceState.files.size,
    numRemovedFiles: removed.length,
    numCopiedFiles: copies.length,
    removedFilesSize: sum(removed.map((f) => f.size)),
    copiedFilesSize: sum(copies.map((c) => c.size)),
  };
  const actions: Action[] = [
    {
      protocol: protocolFor(
        schemaOf(metadata),
        configuration,
        higherProtocol(sourceState.protocol, existing?.protocol),
      ),
    },
    { metaData: metadata },
    ...removed.map((f) => ({ remove: removeOf(f, now) })),
    ...adds.map((add) => ({ add })),
  ];
  await commit(target.reader, {
    operation: 'CLONE',
    operationParameters: {
      source: path.resolve(source.dir),
      sourceVersion: String(sourceState.version),
      isShallow: String(opts.mode === 'SHALLOW'),
    },
    operationMetrics: {
      source_table_size: metrics.sourceTableSize,
      source_num_of_files: metrics.sourceNumOfFiles,
      num_removed_files: metrics.numRemovedFiles,
      num_copied_files: metrics.numCopiedFiles,
      removed_files_size: metrics.removedFilesSize,
      copied_files_size: metrics.copiedFilesSize,
    },
    readVersion: existing?.version ?? -1,
    actions,
    ctx,
    extraInfo: {
      clone: {
        sourceTableId: sourceState.metadata.id,
        sourceVersion: sourceState.version,
        sourcePath: path.resolve(source.dir),
      },
    },
  });
  return metrics;
}
