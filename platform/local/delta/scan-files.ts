import { duckString, withDuck } from '../duck';
import type { DeltaField } from './contract';
import { resolveLogPath } from './paths';
import { scanExpression, type ScanFile } from './scan';

/** A file as the log describes it. */
export interface LogFile {
  path: string;
  partitionValues?: Record<string, string | null> | null;
  stats?: string | null;
}

/** Column names per data file; files are immutable, so what was read once stays true for the process. */
const fileColumns = new Map<string, Set<string>>();

async function readColumns(paths: string[]): Promise<void> {
  const todo = paths.filter((p) => !fileColumns.has(p));
  if (todo.length === 0) return;
  const list = `[${todo.map(duckString).join(', ')}]`;
  const rows = await withDuck(async (conn) =>
    (
      await conn.runAndReadAll(`SELECT file_name, lower(name) AS name FROM parquet_schema(${list})`)
    ).getRowObjectsJson(),
  );
  for (const p of todo) fileColumns.set(p, new Set());
  for (const r of rows) fileColumns.get(String(r.file_name))?.add(String(r.name));
}

/** Columns the stats prove present: our writer records nullCount for every data column it wrote. */
function statsColumns(stats: string | null | undefined): Set<string> | null {
  if (!stats) return null;
  try {
    const nullCount = (JSON.parse(stats) as { nullCount?: Record<string, unknown> }).nullCount;
    return nullCount ? new Set(Object.keys(nullCount).map((k) => k.toLowerCase())) : null;
  } catch {
    return null;
  }
}

/**
 * Resolves log files to scan inputs and works out which data columns each file lacks (tables whose
 * schema gained columns after the file was written). Stats answer for files we wrote; other files'
 * footers are read once per process.
 */
export async function resolveScanFiles(
  dir: string,
  schema: DeltaField[],
  partitionColumns: string[],
  files: LogFile[],
): Promise<ScanFile[]> {
  const dataColumns = schema.filter((f) => !partitionColumns.includes(f.name)).map((f) => f.name);
  const resolved = files.map((f) => ({
    file: f,
    absolutePath: resolveLogPath(dir, f.path),
    known: statsColumns(f.stats),
  }));
  const complete = (cols: Set<string> | null | undefined) =>
    !!cols && dataColumns.every((c) => cols.has(c.toLowerCase()));
  await readColumns(resolved.filter((r) => !complete(r.known)).map((r) => r.absolutePath));
  return resolved.map((r) => {
    const cols = complete(r.known) ? r.known! : (fileColumns.get(r.absolutePath) ?? new Set<string>());
    const missing = dataColumns.filter((c) => !cols.has(c.toLowerCase()));
    return {
      absolutePath: r.absolutePath,
      partitionValues: r.file.partitionValues ?? {},
      ...(missing.length ? { missing } : {}),
    };
  });
}

/** resolveScanFiles + scanExpression in one step. */
export async function scanOfLogFiles(
  dir: string,
  schema: DeltaField[],
  partitionColumns: string[],
  files: LogFile[],
  opts: Parameters<typeof scanExpression>[3] = {},
): Promise<string> {
  return scanExpression(schema, partitionColumns, await resolveScanFiles(dir, schema, partitionColumns, files), opts);
}
