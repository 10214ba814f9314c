import type {
  CloneMetrics,
  DataFormat,
  HistoryEntry,
  RestoreMetrics,
  TableDetail,
  TableInfo,
  TableType,
} from '../../types';

/** Plain conversions from result rows to the port's typed shapes. */
export function str(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return String(v);
}

export function num(v: unknown): number {
  if (v === null || v === undefined || v === '') return 0;
  const n = typeof v === 'bigint' ? Number(v) : Number(v);
  return Number.isFinite(n) ? n : 0;
}

export function numOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : num(v);
}

export function iso(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'number') return new Date(v).toISOString();
  const d = new Date(String(v));
  return Number.isNaN(d.getTime()) ? String(v) : d.toISOString();
}

/** Maps arrive as objects (Arrow), arrays of [key, value] pairs, or JSON text depending on the result format. */
export function stringMap(v: unknown): Record<string, string> {
  let value = v;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  if (value instanceof Map) value = Object.fromEntries(value);
  if (Array.isArray(value)) {
    return Object.fromEntries(
      value.map((e) => (Array.isArray(e) ? [String(e[0]), String(e[1])] : [String(e.key), String(e.value)])),
    );
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, x === null ? '' : String(x)]));
  }
  return {};
}

export function stringList(v: unknown): string[] {
  let value = v;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return value === '' ? [] : [value as string];
    }
  }
  return Array.isArray(value) ? value.map(String) : [];
}

export function tableType(v: unknown): TableType {
  const t = String(v ?? '').toUpperCase();
  if (t === 'VIEW') return 'VIEW';
  return t.startsWith('EXTERNAL') ? 'EXTERNAL' : 'MANAGED';
}

export function dataFormat(v: unknown): DataFormat | null {
  const f = String(v ?? '').toUpperCase();
  return f === 'DELTA' || f === 'PARQUET' || f === 'ICEBERG' ? f : null;
}

export function tableInfo(r: Record<string, unknown>): TableInfo {
  return {
    catalog: String(r.table_catalog),
    schema: String(r.table_schema),
    name: String(r.table_name),
    tableType: tableType(r.table_type),
    format: tableType(r.table_type) === 'VIEW' ? null : dataFormat(r.data_source_format),
    owner: str(r.table_owner),
    comment: str(r.comment),
    location: null,
    sizeBytes: null,
    createdAt: iso(r.created),
    lastAltered: iso(r.last_altered),
  };
}

export function historyEntry(r: Record<string, unknown>): HistoryEntry {
  return {
    version: num(r.version),
    timestamp: iso(r.timestamp) ?? '',
    operation: String(r.operation ?? ''),
    operationParameters: stringMap(r.operationParameters),
    operationMetrics: stringMap(r.operationMetrics),
    userName: str(r.userName),
  };
}

export function tableDetail(r: Record<string, unknown>): TableDetail {
  return {
    format: String(r.format ?? ''),
    id: str(r.id),
    name: String(r.name ?? ''),
    description: str(r.description),
    location: str(r.location),
    createdAt: iso(r.createdAt),
    lastModified: iso(r.lastModified),
    partitionColumns: stringList(r.partitionColumns),
    numFiles: num(r.numFiles),
    sizeInBytes: num(r.sizeInBytes),
    properties: stringMap(r.properties),
    minReaderVersion: numOrNull(r.minReaderVersion),
    minWriterVersion: numOrNull(r.minWriterVersion),
  };
}

export function cloneMetrics(r: Record<string, unknown> | undefined): CloneMetrics {
  return {
    sourceTableSize: num(r?.source_table_size),
    sourceNumOfFiles: num(r?.source_num_of_files),
    numRemovedFiles: num(r?.num_removed_files),
    numCopiedFiles: num(r?.num_copied_files),
    removedFilesSize: num(r?.removed_files_size),
    copiedFilesSize: num(r?.copied_files_size),
  };
}

export function restoreMetrics(r: Record<string, unknown> | undefined): RestoreMetrics {
  return {
    tableSizeAfterRestore: num(r?.table_size_after_restore),
    numOfFilesAfterRestore: num(r?.num_of_files_after_restore),
    numRemovedFiles: num(r?.num_removed_files),
    numRestoredFiles: num(r?.num_restored_files),
    removedFilesSize: num(r?.removed_files_size),
    restoredFilesSize: num(r?.restored_files_size),
  };
}
