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

export interface ConvertOptions {
  /** The files to list (an Iceberg snapshot's); default every Parquet file under the folder. */
  files?: string[];
  /** Types of partition columns (default: bigint when every value is an integer, else string). */
  partitionTypes?: Record<string, string>;
}

/** `key=value` folder segments of a file's path below the table, in order. */
function partitionSegments(dir: string, file: string): [string, string | null][] {
  return path
    .relative(dir, path.dirname(file))
    .split(path.sep)
    .filter((seg) => seg.includes('='))
    .map((seg) => {
      const i = seg.indexOf('=');
      const value = decodeURIComponent(seg.slice(i + 1));
      return [decodeURIComponent(seg.slice(0, i)), value === '__HIVE_DEFAULT_PARTITION__' ? null : value];
    });
}

/**
 * CONVERT TO DELTA parquet.`dir`: version 0 lists the existing files as they are (no rewrite), with the schema
 * merged from their footers and numRecords from the footers. `key=value` folders become partition columns (as
 * CONVERT TO DELTA … PARTITIONED BY does), typed by `partitionTypes` or inferred. A folder that already is a
 * Delta table is left alone (Databricks treats that as a no-op).
 */
export async function convertParquet(
  core: Core,
  ctx?: CommitContext,
  opts: ConvertOptions = {},
): Promise<ConvertMetrics> {
  const stat = await fs.stat(core.dir).catch(() => null);
  if (!stat?.isDirectory()) throw new NotFoundError(`no folder at ${core.dir}`);
  if ((await listLog(core.dir)).commits.length > 0) return { numConvertedFiles: 0 };
  const files = opts.files ? [...opts.files].sort() : await listParquet(core.dir);
  if (files.length === 0) throw new InvalidInputError(`${core.dir} holds no Parquet files to convert`);
  const parts = files.map((f) => partitionSegments(core.dir, f));
  const partitionColumns = parts[0].map(([k]) => k);
  parts.forEach((p, i) => {
    if (p.map(([k]) => k).join('/') !== partitionColumns.join('/'))
      throw new InvalidInputError(
        `${path.relative(core.dir, files[i])}: partition folders (${p.map(([k]) => k).join(', ') || 'none'}) differ from ${partitionColumns.join(', ') || 'none'}`,
      );
  });
  const list = `[${files.map(duckString).join(', ')}]`;
  const dataSchema = await describeQuery(
    `SELECT * FROM read_parquet(${list}, union_by_name = true, hive_partitioning = false)`,
  );
  const partitionFields = partitionColumns.map((name, c) => {
    const values = parts.map((p) => p[c][1]).filter((v): v is string => v !== null);
    const type = opts.partitionTypes?.[name] ?? (values.every((v) => /^-?\d{1,18}$/.test(v)) ? 'bigint' : 'string');
    return { name, type, nullable: true };
  });
  const schema = [...dataSchema.filter((f) => !partitionColumns.includes(f.name)), ...partitionFields];
  const rows = await withDuck(async (conn) =>
    (await conn.runAndReadAll(`SELECT file_name, num_rows FROM parquet_file_metadata(${list})`)).getRowObjectsJson(),
  );
  const numRows = new Map(rows.map((r) => [String(r.file_name), Number(r.num_rows)]));
  const adds: AddAction[] = [];
  for (const [i, file] of files.entries()) {
    const s = await fs.stat(file);
    adds.push({
      path: encodeRelative(path.relative(core.dir, file)),
      partitionValues: Object.fromEntries(parts[i]),
      size: s.size,
      modificationTime: Math.floor(s.mtimeMs),
      dataChange: true,
      stats: JSON.stringify({ numRecords: numRows.get(file) ?? 0 }),
    });
  }
  const metadata = newMetadata(schema, { partitionColumns }, Date.now());
  await commit(core.reader, {
    operation: 'CONVERT',
    operationParameters: {
      numFiles: String(files.length),
      partitionedBy: JSON.stringify(partitionColumns),
      collectStats: 'false',
    },
    operationMetrics: { numConvertedFiles: files.length },
    readVersion: -1,
    actions: [{ protocol: protocolFor(schema, {}) }, { metaData: metadata }, ...adds.map((add) => ({ add }))],
    ctx,
  });
  return { numConvertedFiles: files.length };
}
