/**
 * Incremental sync: why a source table needs syncing into a destination, and how (pure: no I/O, no clock).
 * Change detection compares the source version recorded at the table's last clone into that destination with
 * the source's current version: never a source version with a destination version (a clone starts the
 * destination's own history, so those numbers are unrelated).
 */

export type SyncReason = 'new' | 'source_changed' | 'schema_changed' | 'in_sync';
export type SyncPath = 'merge' | 'copy' | null;

/** A change feed of at most this many change rows (pre-images not counted) is applied as a MERGE. */
export const MERGE_MAX_CHANGE_ROWS = 10_000;

export interface ColumnShape {
  name: string;
  type: string;
}

/** What was observed about one source table and its destination copy. */
export interface TableFacts {
  table: string;
  /** The source's current version (null for formats without versions). */
  currentVersion: number | null;
  sizeBytes: number | null;
  /** The destination table exists. */
  destinationExists: boolean;
  /** A clone of this table from this source into this destination was recorded. */
  recorded: boolean;
  /** Source version recorded at that clone (null: none recorded, or the source has no versions). */
  recordedVersion: number | null;
  sourceColumns: ColumnShape[];
  destinationColumns: ColumnShape[] | null;
  /** Change data feed is on at the source. */
  cdf: boolean;
  /** Change rows (without pre-images) between the recorded and current versions; null when unread/unreadable. */
  feedChanges: number | null;
  feedError?: string;
  /** Key columns a MERGE matches rows by; null when the table has none. */
  mergeKeys: string[] | null;
}

export interface TableSyncStatus {
  table: string;
  reason: SyncReason;
  needs_sync: boolean;
  recorded_version: number | null;
  current_version: number | null;
  /** Change rows in the feed between the versions (null: no feed read). */
  change_rows: number | null;
  /** How a sync would bring it over: MERGE of the changed rows, a full copy, or nothing. */
  path: SyncPath;
  merge_keys: string[] | null;
  size_bytes: number | null;
  detail: string;
}

const shape = (cols: ColumnShape[]) => cols.map((c) => `${c.name.toLowerCase()}:${c.type.toLowerCase()}`).join(',');

/** Columns added, removed or retyped between source and destination (order-insensitive by name). */
export function schemaDiffers(src: ColumnShape[], dst: ColumnShape[]): boolean {
  const sort = (c: ColumnShape[]) => [...c].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
  return shape(sort(src)) !== shape(sort(dst));
}

/** Merge keys: the `lakeward.merge_keys` property (comma list), else a NOT NULL first column named id or *_id. */
export function mergeKeysOf(
  columns: { name: string; nullable?: boolean }[],
  properties: Record<string, string>,
): string[] | null {
  const declared = properties['lakeward.merge_keys'];
  if (declared !== undefined) {
    const keys = declared
      .split(',')
      .map((k) => k.trim())
      .filter((k) => k !== '');
    const names = new Set(columns.map((c) => c.name));
    return keys.length > 0 && keys.every((k) => names.has(k)) ? keys : null;
  }
  const first = columns[0];
  if (first && first.nullable === false && /^(id|.+_id)$/i.test(first.name)) return [first.name];
  return null;
}

/** The table's change data feed is on (`delta.enableChangeDataFeed` = true, any case). */
export const cdfEnabled = (properties: Record<string, string>) =>
  properties['delta.enableChangeDataFeed']?.toLowerCase() === 'true';

export function classifyTable(f: TableFacts): TableSyncStatus {
  const base = {
    table: f.table,
    recorded_version: f.recordedVersion,
    current_version: f.currentVersion,
    change_rows: f.feedChanges,
    merge_keys: f.mergeKeys,
    size_bytes: f.sizeBytes,
  };
  if (!f.destinationExists)
    return { ...base, reason: 'new', needs_sync: true, path: 'copy', detail: 'not in the destination' };
  if (!f.recorded)
    return {
      ...base,
      reason: 'new',
      needs_sync: true,
      path: 'copy',
      detail: 'in the destination, but no clone from this source was recorded',
    };
  if (f.destinationColumns && schemaDiffers(f.sourceColumns, f.destinationColumns))
    return { ...base, reason: 'schema_changed', needs_sync: true, path: 'copy', detail: 'columns differ' };
  if (f.recordedVersion === null || f.currentVersion === null)
    return {
      ...base,
      reason: 'source_changed',
      needs_sync: true,
      path: 'copy',
      detail: 'the source has no table versions (not Delta): changes cannot be told, so it is copied on every sync',
    };
  if (f.currentVersion !== null && f.currentVersion === f.recordedVersion)
    return {
      ...base,
      reason: 'in_sync',
      needs_sync: false,
      path: null,
      detail: `source at version ${f.currentVersion}`,
    };
  const versions = `source version ${f.recordedVersion} → ${f.currentVersion ?? 'unknown'}`;
  if (f.cdf && f.feedChanges === 0)
    return {
      ...base,
      reason: 'in_sync',
      needs_sync: false,
      path: null,
      detail: `${versions}: the change data feed holds no row changes`,
    };
  if (f.cdf && f.feedChanges !== null && f.mergeKeys && f.feedChanges <= MERGE_MAX_CHANGE_ROWS)
    return {
      ...base,
      reason: 'source_changed',
      needs_sync: true,
      path: 'merge',
      detail: `${versions}: ${f.feedChanges} change rows, MERGE by ${f.mergeKeys.join(', ')}`,
    };
  const why = !f.cdf
    ? 'no change data feed'
    : f.feedChanges === null
      ? `change data feed unreadable${f.feedError ? ` (${f.feedError})` : ''}`
      : !f.mergeKeys
        ? 'no merge key'
        : `${f.feedChanges} change rows (over ${MERGE_MAX_CHANGE_ROWS})`;
  return {
    ...base,
    reason: 'source_changed',
    needs_sync: true,
    path: 'copy',
    detail: `${versions}: ${why}, full copy`,
  };
}

export interface SchemaCheck {
  schema: string;
  tables_needing_sync: number;
  tables: TableSyncStatus[];
}

export function summariseSchema(schema: string, tables: TableSyncStatus[]): SchemaCheck {
  return { schema, tables_needing_sync: tables.filter((t) => t.needs_sync).length, tables };
}

/** The `selective` block of an estimate from the same classification the incremental check makes. */
export function selectiveBlock(tables: TableSyncStatus[]) {
  const toClone = tables.filter((t) => t.needs_sync);
  const total = tables.reduce((a, t) => a + (t.size_bytes ?? 0), 0);
  const sizeToClone = toClone.reduce((a, t) => a + (t.size_bytes ?? 0), 0);
  const savings =
    tables.length === 0
      ? 0
      : total > 0
        ? (1 - sizeToClone / total) * 100
        : ((tables.length - toClone.length) / tables.length) * 100;
  const savings_pct = Math.round(savings * 100) / 100;
  return {
    target_exists: true as const,
    tables_to_clone: toClone.length,
    tables_in_sync: tables.length - toClone.length,
    savings_pct,
    recommended: savings_pct >= 50 ? ('SELECTIVE' as const) : ('FULL' as const),
    size_bytes: sizeToClone,
  };
}

/** Throughput before any clone job ran (documented in the README): 100 MiB/s and 2 tables/s. */
export const DEFAULT_THROUGHPUT = { bytesPerSecond: 100 * 1024 * 1024, tablesPerSecond: 2 };

/**
 * This installation's throughput from its finished clone jobs: bytes/s over DEEP jobs that copied bytes,
 * tables/s over all of them; the defaults for what no job measured yet.
 */
export function throughputOf(runs: { cloneType: string | null; seconds: number; bytes: number; tables: number }[]) {
  const timed = runs.filter((r) => r.seconds > 0);
  const deep = timed.filter((r) => r.cloneType === 'DEEP' && r.bytes > 0);
  const withTables = timed.filter((r) => r.tables > 0);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const bytesPerSecond = deep.length
    ? sum(deep.map((r) => r.bytes)) / sum(deep.map((r) => r.seconds))
    : DEFAULT_THROUGHPUT.bytesPerSecond;
  const tablesPerSecond = withTables.length
    ? sum(withTables.map((r) => r.tables)) / sum(withTables.map((r) => r.seconds))
    : DEFAULT_THROUGHPUT.tablesPerSecond;
  return {
    bytes_per_second: Math.round(bytesPerSecond),
    tables_per_second: Math.round(tablesPerSecond * 1000) / 1000,
    source: deep.length || withTables.length ? ('history' as const) : ('default' as const),
    jobs: new Set([...deep, ...withTables]).size,
  };
}

/** SHALLOW: tables ÷ tables/s; DEEP: that plus bytes ÷ bytes/s. Seconds, three decimals. */
export function estimatedSeconds(
  tables: number,
  bytes: number,
  t: { bytes_per_second: number; tables_per_second: number },
) {
  const shallow = t.tables_per_second > 0 ? tables / t.tables_per_second : 0;
  const deep = shallow + (t.bytes_per_second > 0 ? bytes / t.bytes_per_second : 0);
  return { DEEP: Math.round(deep * 1000) / 1000, SHALLOW: Math.round(shallow * 1000) / 1000 };
}
