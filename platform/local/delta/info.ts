import * as path from 'node:path';
import { InvalidInputError } from '../../errors';
import type { HistoryEntry, TableDetail } from '../../types';
import { numRecordsOf } from './actions';
import type { DeltaSnapshot } from './contract';
import { schemaOf, sum, type Core } from './core';
import { listLog } from './log';
import { resolveLogPath } from './paths';
import type { TableState } from './state';

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export async function toSnapshot(core: Core, state: TableState): Promise<DeltaSnapshot> {
  const files = [...state.files.values()].map((f) => ({
    path: f.path,
    absolutePath: resolveLogPath(core.dir, f.path),
    size: f.size,
    modificationTime: f.modificationTime,
    partitionValues: f.partitionValues,
    numRecords: numRecordsOf(f),
  }));
  const m = state.metadata;
  return {
    version: state.version,
    timestamp: (await core.reader.commitMeta(state.version)).timestamp,
    metadata: {
      id: m.id,
      name: m.name ?? null,
      description: m.description ?? null,
      schema: schemaOf(m),
      partitionColumns: m.partitionColumns,
      configuration: m.configuration,
      createdTime: m.createdTime ?? null,
    },
    protocol: { minReaderVersion: state.protocol.minReaderVersion, minWriterVersion: state.protocol.minWriterVersion },
    files,
    numFiles: files.length,
    sizeInBytes: sum(files.map((f) => f.size)),
  };
}

function strings(values: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values ?? {})) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

/** DESCRIBE HISTORY: newest first. */
export async function history(core: Core, limit?: number): Promise<HistoryEntry[]> {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    throw new InvalidInputError(`limit: ${limit} is not a positive integer`);
  const { commits } = await listLog(core.dir);
  if (commits.length === 0) await core.reader.latestVersion();
  const versions = commits
    .slice()
    .reverse()
    .slice(0, limit ?? commits.length);
  const out: HistoryEntry[] = [];
  for (const v of versions) {
    const { timestamp, info } = await core.reader.commitMeta(v);
    out.push({
      version: v,
      timestamp: iso(timestamp),
      operation: info?.operation ?? 'UNKNOWN',
      operationParameters: strings(info?.operationParameters),
      operationMetrics: strings(info?.operationMetrics),
      userName: typeof info?.userName === 'string' ? info.userName : null,
    });
  }
  return out;
}

/** DESCRIBE DETAIL of the latest version. */
export async function detail(core: Core): Promise<TableDetail> {
  const state = await core.reader.stateAt();
  const snap = await toSnapshot(core, state);
  const first = await core.reader.commitMeta((await listLog(core.dir)).commits[0]);
  return {
    format: 'delta',
    id: state.metadata.id,
    name: state.metadata.name ?? path.basename(core.dir),
    description: state.metadata.description ?? null,
    location: path.resolve(core.dir),
    createdAt: iso(state.metadata.createdTime ?? first.timestamp),
    lastModified: iso(snap.timestamp),
    partitionColumns: state.metadata.partitionColumns,
    numFiles: snap.numFiles,
    sizeInBytes: snap.sizeInBytes,
    properties: state.metadata.configuration,
    minReaderVersion: state.protocol.minReaderVersion,
    minWriterVersion: state.protocol.minWriterVersion,
  };
}
