import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { duckString, withDuck } from '../duck';
import type { Action } from './actions';
import { checkpointFileName, logDir } from './paths';
import type { TableState } from './state';

/** Commits between classic checkpoints (Delta's default `delta.checkpointInterval`). */
export const CHECKPOINT_INTERVAL = 10;

const MAP = 'MAP(VARCHAR, VARCHAR)';
/** Column types of a classic checkpoint, as Delta readers (delta-rs/kernel, Spark) expect them. */
const CHECKPOINT_COLUMNS: Record<string, string> = {
  txn: 'STRUCT(appId VARCHAR, version BIGINT, lastUpdated BIGINT)',
  add: `STRUCT(path VARCHAR, partitionValues ${MAP}, size BIGINT, modificationTime BIGINT, dataChange BOOLEAN, stats VARCHAR, tags ${MAP})`,
  remove: `STRUCT(path VARCHAR, deletionTimestamp BIGINT, dataChange BOOLEAN, extendedFileMetadata BOOLEAN, partitionValues ${MAP}, size BIGINT)`,
  metaData: `STRUCT(id VARCHAR, name VARCHAR, description VARCHAR, format STRUCT(provider VARCHAR, options ${MAP}), schemaString VARCHAR, partitionColumns VARCHAR[], configuration ${MAP}, createdTime BIGINT)`,
  protocol:
    'STRUCT(minReaderVersion INTEGER, minWriterVersion INTEGER, readerFeatures VARCHAR[], writerFeatures VARCHAR[])',
};

/** How long tombstones are kept in checkpoints (delta.deletedFileRetentionDuration, default 1 week). */
export function tombstoneRetentionMs(state: Pick<TableState, 'metadata'>): number {
  const text = state.metadata.configuration['delta.deletedFileRetentionDuration'];
  const m = text ? /^interval\s+(\d+)\s+(hour|hours|day|days|week|weeks)$/i.exec(text.trim()) : null;
  if (!m) return 7 * 24 * 3600_000;
  const unit = m[2].toLowerCase().startsWith('hour')
    ? 3600_000
    : m[2].toLowerCase().startsWith('day')
      ? 86_400_000
      : 604_800_000;
  return Number(m[1]) * unit;
}

/**
 * Writes `n.checkpoint.parquet` (reconciled protocol, metaData, live adds, unexpired removes, txns — never
 * commitInfo or cdc) and then `_last_checkpoint`. Both are published by rename, so a reader sees either
 * nothing or a complete file; a crash in between only costs the speed-up.
 */
export async function writeCheckpoint(tableDir: string, state: TableState, now: number): Promise<void> {
  const actions: Action[] = [{ protocol: state.protocol }, { metaData: state.metadata }];
  for (const txn of state.txns.values()) actions.push({ txn });
  for (const add of state.files.values()) actions.push({ add: { ...add, dataChange: false } });
  const horizon = now - tombstoneRetentionMs(state);
  for (const remove of state.tombstones.values()) {
    if ((remove.deletionTimestamp ?? now) >= horizon) actions.push({ remove: { ...remove, dataChange: false } });
  }
  const id = randomUUID();
  const jsonTmp = path.join(os.tmpdir(), `lakeward-checkpoint-${id}.json`);
  const parquetTmp = path.join(logDir(tableDir), `.checkpoint-${id}.parquet.tmp`);
  const columns = Object.entries(CHECKPOINT_COLUMNS)
    .map(([k, v]) => `${k}: ${duckString(v)}`)
    .join(', ');
  try {
    await fs.writeFile(jsonTmp, actions.map((a) => JSON.stringify(a)).join('\n') + '\n');
    await withDuck((conn) =>
      conn.run(
        `COPY (SELECT * FROM read_json(${duckString(jsonTmp)}, format = 'newline_delimited', columns = {${columns}})) ` +
          `TO ${duckString(parquetTmp)} (FORMAT parquet, COMPRESSION snappy)`,
      ),
    );
    await fs.rename(parquetTmp, path.join(logDir(tableDir), checkpointFileName(state.version)));
    const last = path.join(logDir(tableDir), `.last_checkpoint-${id}.tmp`);
    await fs.writeFile(
      last,
      JSON.stringify({ version: state.version, size: actions.length, numOfAddFiles: state.files.size }),
    );
    await fs.rename(last, path.join(logDir(tableDir), '_last_checkpoint'));
  } finally {
    await fs.rm(jsonTmp, { force: true });
    await fs.rm(parquetTmp, { force: true });
  }
}

/** Reads a classic checkpoint (ours or another writer's) back into actions. */
export async function readCheckpoint(tableDir: string, version: number): Promise<Action[]> {
  const file = path.join(logDir(tableDir), checkpointFileName(version));
  const rows = await withDuck(async (conn) => {
    const reader = await conn.runAndReadAll(
      `SELECT to_json(cp)::VARCHAR AS j FROM read_parquet(${duckString(file)}) cp`,
    );
    return reader.getRows();
  });
  const actions: Action[] = [];
  for (const [j] of rows) {
    const row = JSON.parse(String(j)) as Record<string, unknown>;
    for (const key of ['protocol', 'metaData', 'add', 'remove', 'txn'] as const) {
      if (row[key]) actions.push({ [key]: stripNulls(row[key]) } as Action);
    }
  }
  return actions;
}

/** Checkpoint structs carry every field; nulls mean "absent" in the JSON form. */
function stripNulls(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = v;
  return out;
}
