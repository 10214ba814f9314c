import type {
  CloneMetrics,
  ConvertMetrics,
  HistoryEntry,
  OptimizeMetrics,
  RestoreMetrics,
  TableDetail,
  TimeTravel,
  VacuumResult,
} from '../../types';

/**
 * The seam between the Delta engine (`platform/local/delta/`, one table = one folder) and the local
 * workspace (`platform/local/`, names → folders, governance, SQL). The engine knows nothing of catalogs.
 *
 * SQL passed in (`selectSql`, predicates, set expressions) is DuckDB SQL that the caller has already
 * resolved (table names replaced by scans). The engine uses the shared DuckDB instance of `../duck.ts`.
 */

import type { StorageBreakdown } from './file-classes';

export interface DeltaField {
  name: string;
  /** Databricks type text: bigint, int, smallint, tinyint, double, float, boolean, string, binary, date,
   *  timestamp, timestamp_ntz, decimal(p,s), array<..>, map<..,..>, struct<..>. */
  type: string;
  nullable: boolean;
  metadata?: Record<string, unknown>;
}

export interface DeltaMetadata {
  id: string;
  name: string | null;
  description: string | null;
  schema: DeltaField[];
  partitionColumns: string[];
  configuration: Record<string, string>;
  createdTime: number | null;
}

export interface DeltaAddFile {
  /** As written in the log: relative to the table root, or an absolute file:// URI (shallow clones). */
  path: string;
  /** Resolved absolute filesystem path. */
  absolutePath: string;
  size: number;
  modificationTime: number;
  partitionValues: Record<string, string | null>;
  numRecords: number | null;
}

export interface DeltaSnapshot {
  version: number;
  /** Commit timestamp (ms since epoch). */
  timestamp: number;
  metadata: DeltaMetadata;
  protocol: { minReaderVersion: number; minWriterVersion: number };
  files: DeltaAddFile[];
  numFiles: number;
  sizeInBytes: number;
}

/** Who and why, recorded in commitInfo. */
export interface CommitContext {
  userName?: string;
  /** Extra commitInfo.operationParameters (values are strings, as Delta writes them). */
  operationParameters?: Record<string, string>;
  /** Overrides commitInfo.operation (e.g. 'ADD COLUMNS', 'CHANGE COLUMN'); the engine picks one otherwise. */
  operation?: string;
}

export interface CreateDeltaOptions {
  schema: DeltaField[];
  partitionColumns?: string[];
  configuration?: Record<string, string>;
  name?: string;
  description?: string | null;
}

export interface DeltaCloneOptions extends TimeTravel {
  mode: 'DEEP' | 'SHALLOW';
  /** Extra table properties merged into the clone's configuration. */
  properties?: Record<string, string>;
  /** true: CREATE OR REPLACE (incremental re-clone of a deep clone copies only new files). */
  replace?: boolean;
}

export interface DeltaVacuumOptions {
  retentionHours?: number;
  dryRun?: boolean;
  /** Absolute paths that other tables (shallow clones) still reference: never deleted. */
  protectedPaths?: ReadonlySet<string>;
  /** Injected clock for tests (ms). */
  now?: number;
}

export interface DeltaTableApi {
  readonly dir: string;
  latestVersion(): Promise<number>;
  snapshot(at?: TimeTravel): Promise<DeltaSnapshot>;
  /** Newest first. */
  history(limit?: number): Promise<HistoryEntry[]>;
  detail(): Promise<TableDetail>;
  /**
   * A DuckDB table expression that reads the snapshot with the table's schema (typed columns even when the
   * table has no files, partition columns included), e.g. `(SELECT ... FROM read_parquet([...]))`.
   */
  scanSql(at?: TimeTravel): Promise<string>;

  append(selectSql: string, ctx?: CommitContext): Promise<{ version: number; numOutputRows: number }>;
  overwrite(selectSql: string, ctx?: CommitContext): Promise<{ version: number; numOutputRows: number }>;
  deleteWhere(predicate: string, ctx?: CommitContext): Promise<{ version: number; numDeletedRows: number }>;
  updateWhere(
    set: Record<string, string>,
    predicate: string,
    ctx?: CommitContext,
  ): Promise<{ version: number; numUpdatedRows: number }>;
  /**
   * MERGE by key in one commit: `sourceSql` returns the table's columns plus `_lakeward_merge` ('upsert' or
   * 'delete'), one row per key; matched rows are replaced or deleted, unmatched upserts inserted.
   */
  mergeRows(
    sourceSql: string,
    keys: string[],
    ctx?: CommitContext,
  ): Promise<{
    version: number | null;
    numInsertedRows: number;
    numUpdatedRows: number;
    numDeletedRows: number;
  }>;
  /** Metadata-only commit (SET TBLPROPERTIES / UNSET TBLPROPERTIES / description / column metadata). */
  updateMetadata(
    change: {
      setProperties?: Record<string, string>;
      unsetProperties?: string[];
      description?: string | null;
      schema?: DeltaField[];
    },
    ctx?: CommitContext,
  ): Promise<{ version: number }>;

  cloneTo(targetDir: string, opts: DeltaCloneOptions, ctx?: CommitContext): Promise<CloneMetrics>;
  restore(to: TimeTravel, ctx?: CommitContext): Promise<RestoreMetrics>;
  optimize(ctx?: CommitContext): Promise<OptimizeMetrics>;
  vacuum(opts?: DeltaVacuumOptions): Promise<VacuumResult>;
  /** Bytes and files under the folder by class (active / time travel / vacuumable); see file-classes.ts. */
  storage(opts?: { protectedPaths?: ReadonlySet<string>; now?: number }): Promise<StorageBreakdown>;
  /** Change data feed rows between versions, as a DuckDB table expression with _change_type, _commit_version, _commit_timestamp. */
  changesSql(startVersion: number, endVersion?: number): Promise<string>;
}

export interface DeltaEngineStatics {
  create(dir: string, opts: CreateDeltaOptions, ctx?: CommitContext): Promise<DeltaTableApi>;
  /** CTAS: schema from the query's result. */
  createAs(
    dir: string,
    selectSql: string,
    opts: Omit<CreateDeltaOptions, 'schema'>,
    ctx?: CommitContext,
  ): Promise<DeltaTableApi>;
  open(dir: string): Promise<DeltaTableApi>;
  isDeltaTable(dir: string): Promise<boolean>;
  /** CONVERT TO DELTA of a folder of Parquet files: writes a log over the existing files, no rewrite. */
  convertParquet(
    dir: string,
    ctx?: CommitContext,
    opts?: { files?: string[]; partitionTypes?: Record<string, string> },
  ): Promise<ConvertMetrics>;
}
