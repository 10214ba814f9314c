import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InvalidInputError, NotFoundError } from '../../errors';
import type { ConvertMetrics } from '../../types';
import { duckString, withDuck } from '../duck';
import type { AddAction } from './actions';
import { commit } from './commit';
import type { CommitContext } from './contract';
import type { Core } from './core';
import { protocolFor } from './core';
import { listLog } from './log';
import { encodeRelative } from './paths';
import { describeQuery } from './shape';
import { newMetadata } from './write';

async function listParquet(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('_') || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listParquet(full)));
    else if (entry.isFile() && entry.name.endsWith('.parquet')) out.push(full);
  }
  return out.sort();
}

/**
 * CONVERT TO DELTA parquet.`dir`: version 0 lists the existing files as they are (no rewrite), with the
 * schema merged from their footers and numRecords from the footers. Unpartitioned. A folder that already
 * is a Delta table is left alone (Databricks treats that as a no-op).
 */
export async function convertParquet(core: Core, ctx?: CommitContext): Promise<ConvertMetrics> {
  const stat = await fs.stat(core.dir).catch(() => null);
  if (!stat?.isDirectory()) throw new NotFoundError(`no folder at ${core.dir}`);
  if ((await listLog(core.dir)).commits.length > 0) return { numConvertedFiles: 0 };
  const files = await listParquet(core.dir);
  if (files.length === 0) throw new InvalidInputError(`${core.dir} holds no Parquet files to convert`);
  const list = `[${files.map(duckString).join(', ')}]`;
  const schema = await describeQuery(
    `SELECT * FROM read_parquet(${list}, union_by_name = true, hive_partitioning = false)`,
  );
  const rows = await withDuck(async (conn) =>
    (await conn.runAndReadAll(`SELECT file_name, num_rows FROM parquet_file_metadata(${list})`)).getRowObjectsJson(),
  );
  const numRows = new Map(rows.map((r) => [String(r.file_name), Number(r.num_rows)]));
  const now = Date.now();
  const adds: AddAction[] = [];
  for (const file of files) {
    const s = await fs.stat(file);
    adds.push({
      path: encodeRelative(path.relative(core.dir, file)),
      partitionValues: {},
      size: s.size,
      modificationTime: Math.floor(s.mtimeMs),
      dataChange: true,
      stats: JSON.stringify({ numRecords: numRows.get(file) ?? 0 }),
    });
  }
  const metadata = newMetadata(schema, {}, now);
  await commit(core.reader, {
    operation: 'CONVERT',
    operationParameters: { numFiles: String(files.length), partitionedBy: '[]', collectStats: 'false' },
    operationMetrics: { numConvertedFiles: files.length },
    readVersion: -1,
    actions: [{ protocol: protocolFor(schema, {}) }, { metaData: metadata }, ...adds.map((add) => ({ add }))],
    ctx,
  });
  return { numConvertedFiles: files.length };
}
