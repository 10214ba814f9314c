import type { Action, CommitInfoAction } from './actions';
import { CHECKPOINT_INTERVAL, writeCheckpoint } from './checkpoint';
import type { CommitContext } from './contract';
import { writeCommit } from './log';
import { syncUniform } from './uniform';
import type { LogReader } from './snapshot';

export interface CommitRequest {
  operation: string;
  operationParameters?: Record<string, unknown>;
  operationMetrics?: Record<string, number | string>;
  /** Version the writer read; the commit goes to readVersion + 1 (-1 for a new table). */
  readVersion: number;
  isBlindAppend?: boolean;
  actions: Action[];
  ctx?: CommitContext;
  /** Extra commitInfo fields (e.g. clone provenance). */
  extraInfo?: Record<string, unknown>;
}

function stringMap(values: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values ?? {})) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

/**
 * Publishes one commit at readVersion + 1 (ConflictError if another writer took it) and writes a
 * checkpoint every CHECKPOINT_INTERVAL versions. Commit timestamps are kept strictly increasing so that
 * TIMESTAMP AS OF always resolves to one version.
 */
export async function commit(reader: LogReader, req: CommitRequest): Promise<number> {
  const version = req.readVersion + 1;
  let timestamp = Date.now();
  if (req.readVersion >= 0) timestamp = Math.max(timestamp, (await reader.commitMeta(req.readVersion)).timestamp + 1);
  const commitInfo: CommitInfoAction = {
    timestamp,
    operation: req.ctx?.operation ?? req.operation,
    operationParameters: { ...stringMap(req.operationParameters), ...(req.ctx?.operationParameters ?? {}) },
    operationMetrics: stringMap(req.operationMetrics),
    ...(req.ctx?.userName ? { userName: req.ctx.userName } : {}),
    ...(req.readVersion >= 0 ? { readVersion: req.readVersion } : {}),
    isolationLevel: 'Serializable',
    isBlindAppend: req.isBlindAppend ?? false,
    engineInfo: 'Lakeward-local-delta',
    ...(req.extraInfo ?? {}),
  };
  await writeCommit(reader.dir, version, [{ commitInfo }, ...req.actions]);
  await syncUniform(reader, version);
  if (version > 0 && version % CHECKPOINT_INTERVAL === 0) {
    try {
      await writeCheckpoint(reader.dir, await reader.stateAt(version), timestamp);
    } catch {
      // A checkpoint only speeds up reads; the commit above is complete without it.
    }
  }
  return version;
}
