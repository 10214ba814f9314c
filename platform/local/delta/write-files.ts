import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InvalidInputError } from '../../errors';
import { duckIdent, duckString, withDuck } from '../duck';
import type { AddAction } from './actions';
import type { DeltaField } from './contract';
import { duckType } from './schema';
import { encodeRelative } from './paths';
import { columnStatsFromDuck, deltaStats } from './stats';
import { asInputError } from './sql-errors';

/** Rough size at which unpartitioned writes start a new data file. */
const TARGET_FILE_SIZE = '512MB';

export interface WrittenFile {
  add: AddAction;
  numRecords: number;
}

export interface WriteSpec {
  schema: DeltaField[];
  partitionColumns: string[];
  /** Subfolder for the files (`_change_data` for CDF files); default the table root. */
  subdir?: string;
  now: number;
}

/** Normalises DuckDB's partition key text to Delta's serialisation (timestamps without the zone suffix). */
function partitionValue(value: string | null, type: string): string | null {
  if (value === null) return null;
  if (duckType(type) === 'TIMESTAMPTZ') return value.replace(/\+00(:00)?$/, '');
  return value;
}

/**
 * Runs `selectSql` (already shaped to the schema) once and writes its rows as Parquet data files. DuckDB
 * writes into a private `_`-prefixed staging folder (invisible to Delta readers and to VACUUM's listing);
 * files are renamed into the table only after the whole COPY succeeded, so a failing query leaves nothing.
 */
export async function writeDataFiles(tableDir: string, selectSql: string, spec: WriteSpec): Promise<WrittenFile[]> {
  const staging = path.join(tableDir, `_lakeward_staging_${randomUUID()}`);
  await fs.mkdir(staging, { recursive: true });
  try {
    // DuckDB cannot roll files by size while partitioning; unpartitioned writes roll at TARGET_FILE_SIZE.
    const layout =
      spec.partitionColumns.length > 0
        ? `PARTITION_BY (${spec.partitionColumns.map(duckIdent).join(', ')})`
        : `FILE_SIZE_BYTES '${TARGET_FILE_SIZE}'`;
    const rows = await withDuck(async (conn) => {
      const reader = await asInputError(() =>
        conn.runAndReadAll(
          `COPY (${selectSql}) TO ${duckString(staging)} (FORMAT parquet, COMPRESSION snappy, RETURN_STATS, ` +
            `FILENAME_PATTERN 'part-00000-{uuid}.c000.snappy', ${layout})`,
        ),
      );
      return reader.getRowObjectsJson();
    });
    const written: WrittenFile[] = [];
    const dest = spec.subdir ? path.join(tableDir, spec.subdir) : tableDir;
    for (const row of rows) {
      const numRecords = Number(row.count);
      const file = String(row.filename);
      if (numRecords === 0) continue;
      const columns = columnStatsFromDuck(row.column_statistics);
      for (const f of spec.schema) {
        if (!f.nullable && !spec.partitionColumns.includes(f.name) && Number(columns[f.name]?.null_count ?? 0) > 0) {
          throw new InvalidInputError(`column '${f.name}' is NOT NULL but the written rows contain NULL`);
        }
      }
      const partitionValues: Record<string, string | null> = {};
      for (const kv of (row.partition_keys as { key: string; value: string | null }[] | null) ?? []) {
        const field = spec.schema.find((f) => f.name === kv.key);
        partitionValues[kv.key] = partitionValue(kv.value, field?.type ?? 'string');
        if (field && !field.nullable && kv.value === null) {
          throw new InvalidInputError(`column '${field.name}' is NOT NULL but the written rows contain NULL`);
        }
      }
      const relative = path.relative(staging, file);
      const add: AddAction = {
        path: encodeRelative(path.join(spec.subdir ?? '', relative)),
        partitionValues,
        size: Number(row.file_size_bytes),
        modificationTime: spec.now,
        dataChange: true,
        stats: deltaStats(numRecords, spec.schema, spec.partitionColumns, columns),
      };
      written.push({ add, numRecords });
    }
    for (const row of rows) {
      if (Number(row.count) === 0) continue;
      const relative = path.relative(staging, String(row.filename));
      await fs.mkdir(path.dirname(path.join(dest, relative)), { recursive: true });
      await fs.rename(String(row.filename), path.join(dest, relative));
    }
    return written;
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}
