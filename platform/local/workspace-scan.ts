import { promises as fs } from 'node:fs';
import path from 'node:path';
import { InvalidInputError } from '../errors';
import type { TimeTravel } from '../types';
import { duckIdent, duckString } from './duck';
import type { TableEntry } from './metastore/types';
import { databricksToDuck } from './sql/types';
import { fqnOf, type LocalContext } from './workspace-context';
import { isIcebergTable } from './iceberg/table';
import { icebergScanSql } from './workspace-iceberg';

/** Data files of a plain Parquet (or Iceberg-labelled) table: every *.parquet below its folder, `_*` skipped. */
export async function parquetFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    const names = await fs.readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of names) {
      if (e.name.startsWith('_') || e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith('.parquet')) out.push(p);
    }
  };
  await walk(dir);
  return out.sort();
}

/** Ungoverned table expression over a table's data (Delta snapshot, or the Parquet files), typed. */
export async function rawScanSql(ctx: LocalContext, entry: TableEntry, at?: TimeTravel): Promise<string> {
  if (entry.format === 'DELTA') return (await ctx.delta(entry)).scanSql(at);
  if (entry.format === 'ICEBERG' && (await isIcebergTable(entry.location!))) return icebergScanSql(entry, at);
  if (at && (at.version !== undefined || at.timestamp !== undefined)) {
    throw new InvalidInputError(`time travel needs a Delta table; ${fqnOf(entry)} is ${entry.format}`);
  }
  const cols = entry.columns ?? [];
  const files = await parquetFiles(entry.location!);
  const typed = cols.map(
    (c) => `CAST(${files.length ? duckIdent(c.name) : 'NULL'} AS ${databricksToDuck(c.type)}) AS ${duckIdent(c.name)}`,
  );
  if (files.length === 0) return `(SELECT ${typed.join(', ')} WHERE false)`;
  return `(SELECT ${typed.join(', ')} FROM read_parquet([${files.map(duckString).join(', ')}], union_by_name = true))`;
}
