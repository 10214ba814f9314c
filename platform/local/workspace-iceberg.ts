import path from 'node:path';
import { InvalidInputError } from '../errors';
import type { ColumnDef, TimeTravel } from '../types';
import type { DeltaField } from './delta/contract';
import { fileUri } from './delta/paths';
import { scanOfLogFiles } from './delta/scan-files';
import { writeDataFiles } from './delta/write-files';
import {
  commitSnapshot,
  createIcebergTable,
  isIcebergTable,
  readMetadata,
  snapshotFiles,
  columnsOf,
  partitionFields,
} from './iceberg/table';
import type { TableEntry } from './metastore/types';

/**
 * ICEBERG tables of the local lakehouse: real Iceberg v2 (iceberg/table.ts). Data files go to `data/` (identity
 * partitions as `key=value` folders), each write is one snapshot, reads resolve the snapshot's files from its
 * manifests, and time travel takes a snapshot id (`VERSION AS OF <snapshot id>`) or a timestamp.
 */

/** Creates the Iceberg metadata of a new table, or registers an existing one found at an external location. */
export async function materialiseIceberg(
  dir: string,
  opts: { columns: ColumnDef[]; partitionColumns: string[]; properties: Record<string, string>; external: boolean },
): Promise<{ columns: ColumnDef[]; partitionColumns: string[] } | null> {
  if (opts.external && (await isIcebergTable(dir))) {
    const meta = await readMetadata(dir);
    const fields = meta.schemas.find((s) => s['schema-id'] === meta['current-schema-id'])?.fields ?? [];
    return {
      columns: columnsOf(meta).map((c) => ({ name: c.name, type: c.type, nullable: c.nullable })),
      partitionColumns: partitionFields(meta)
        .filter((p) => p.transform === 'identity')
        .map((p) => fields.find((f) => f.id === p['source-id'])?.name ?? p.name),
    };
  }
  await createIcebergTable(dir, {
    columns: opts.columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable ?? true })),
    partitionColumns: opts.partitionColumns,
    properties: opts.properties,
  });
  return null;
}

const fieldsOf = (entry: TableEntry): DeltaField[] =>
  (entry.columns ?? []).map((c) => ({ name: c.name, type: c.type.toLowerCase(), nullable: c.nullable ?? true }));

/** Appends the rows of `selectSql` (shaped to the table) as one snapshot, or replaces every file (overwrite). */
export async function writeIceberg(
  entry: TableEntry,
  selectSql: string,
  mode: 'append' | 'overwrite',
): Promise<{ numOutputRows: number }> {
  const dir = entry.location!;
  const written = await writeDataFiles(dir, selectSql, {
    schema: fieldsOf(entry),
    partitionColumns: entry.partitionColumns ?? [],
    subdir: 'data',
    now: Date.now(),
  });
  const previous = mode === 'append' ? await snapshotFiles(dir) : [];
  const added = written.map((w) => ({
    path: path.join(dir, ...w.add.path.split('/').map(decodeURIComponent)),
    size: w.add.size,
    records: w.numRecords,
    partition: w.add.partitionValues,
  }));
  await commitSnapshot(dir, [...previous, ...added], { operation: mode === 'append' ? 'append' : 'overwrite' });
  return { numOutputRows: written.reduce((a, w) => a + w.numRecords, 0) };
}

/** A typed DuckDB table expression over a snapshot's data files (identity partition values from the manifests). */
export async function icebergScanSql(entry: TableEntry, at?: TimeTravel): Promise<string> {
  if (at && at.version !== undefined && !Number.isSafeInteger(Number(at.version)))
    throw new InvalidInputError(`version: an Iceberg snapshot id is an integer, got ${at.version}`);
  const files = await snapshotFiles(entry.location!, at);
  return scanOfLogFiles(
    entry.location!,
    fieldsOf(entry),
    entry.partitionColumns ?? [],
    files.map((f) => ({ path: fileUri(f.path), partitionValues: f.partition })),
  );
}
