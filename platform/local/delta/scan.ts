import { duckIdent, duckString } from '../duck';
import type { DeltaField } from './contract';
import { duckType } from './schema';

/** One file to scan: absolute path plus its partition values. */
export interface ScanFile {
  absolutePath: string;
  partitionValues: Record<string, string | null>;
  /** Data columns the file does not contain (written before ADD COLUMNS): read as NULL. */
  missing?: string[];
}

/** The extra column naming the source file of each row (used by DML to find affected files). */
export const FILE_COLUMN = '__lakeward_file';

/** A partition value string → typed DuckDB literal (PROTOCOL.md "Partition Value Serialization"). */
export function partitionLiteral(value: string | null | undefined, type: string): string {
  const t = duckType(type);
  if (value === null || value === undefined || value === '') return `CAST(NULL AS ${t})`;
  let text = value;
  if (t === 'TIMESTAMPTZ' && !/(Z|[+-]\d{2}(:?\d{2})?)$/.test(text)) text += '+00';
  return `CAST(${duckString(text)} AS ${t})`;
}

function selectList(
  schema: DeltaField[],
  partitionColumns: string[],
  values: Record<string, string | null> | null,
  missing: string[] = [],
): string {
  return schema
    .map((f) => {
      if (values && partitionColumns.includes(f.name))
        return `${partitionLiteral(values[f.name], f.type)} AS ${duckIdent(f.name)}`;
      const present = values !== null && !missing.includes(f.name);
      return `CAST(${present ? duckIdent(f.name) : 'NULL'} AS ${duckType(f.type)}) AS ${duckIdent(f.name)}`;
    })
    .join(', ');
}

/**
 * DuckDB table expression over data files with the table's schema: typed even with no files, partition
 * columns from the log's partitionValues (they are not stored in the files), optionally the file column.
 */
export function scanExpression(
  schema: DeltaField[],
  partitionColumns: string[],
  files: ScanFile[],
  opts: { withFile?: boolean; extraColumns?: string } = {},
): string {
  const extra = opts.extraColumns ? `, ${opts.extraColumns}` : '';
  if (files.length === 0) {
    const fileCol = opts.withFile ? `, CAST(NULL AS VARCHAR) AS ${duckIdent(FILE_COLUMN)}` : '';
    return `(SELECT ${selectList(schema, partitionColumns, null)}${fileCol}${extra} WHERE false)`;
  }
  const groups = new Map<string, ScanFile[]>();
  for (const f of files) {
    const key = JSON.stringify([partitionColumns.map((p) => f.partitionValues[p] ?? null), f.missing ?? []]);
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  const parts = [...groups.values()].map((group) => {
    const list = group.map((f) => duckString(f.absolutePath)).join(', ');
    const fileOpt = opts.withFile ? `, filename = ${duckString(FILE_COLUMN)}` : '';
    const fileCol = opts.withFile ? `, ${duckIdent(FILE_COLUMN)}` : '';
    return `SELECT ${selectList(schema, partitionColumns, group[0].partitionValues, group[0].missing)}${fileCol}${extra} FROM read_parquet([${list}], hive_partitioning = false, union_by_name = true${fileOpt})`;
  });
  return `(${parts.join(' UNION ALL ')})`;
}
