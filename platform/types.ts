/** Shapes shared by both adapters of the platform port. Types use Databricks vocabulary. */

export type TableType = 'MANAGED' | 'EXTERNAL' | 'VIEW';
export type DataFormat = 'DELTA' | 'PARQUET' | 'ICEBERG';
export type CloneType = 'DEEP' | 'SHALLOW';
export type SecurableType = 'CATALOG' | 'SCHEMA' | 'TABLE' | 'VIEW' | 'FUNCTION' | 'VOLUME';

export interface TableRef {
  catalog: string;
  schema: string;
  name: string;
}

/** A catalog (`{type:'CATALOG', catalog}`), schema (`+ schema`) or object (`+ schema + name`). */
export interface Securable {
  type: SecurableType;
  catalog: string;
  schema?: string;
  name?: string;
}

export interface CatalogInfo {
  name: string;
  owner: string | null;
  comment: string | null;
  /** Managed location (storage root) when one was given. */
  storageRoot: string | null;
  properties: Record<string, string>;
  createdAt: string | null;
}

export interface SchemaInfo {
  catalog: string;
  name: string;
  owner: string | null;
  comment: string | null;
  properties: Record<string, string>;
}

export interface ColumnInfo {
  name: string;
  /** Databricks type text, lower case: `bigint`, `string`, `decimal(10,2)`, `array<string>`, `timestamp`. */
  type: string;
  nullable: boolean;
  comment: string | null;
  /** 1-based. */
  position: number;
}

export interface TableInfo extends TableRef {
  tableType: TableType;
  format: DataFormat | null;
  owner: string | null;
  comment: string | null;
  location: string | null;
  /** Bytes of the current snapshot when cheaply known (used by order_by_size); null otherwise. */
  sizeBytes: number | null;
  createdAt: string | null;
  lastAltered: string | null;
}

export interface TableDescription extends TableInfo {
  columns: ColumnInfo[];
  partitionColumns: string[];
  properties: Record<string, string>;
  /** Current Delta version; null for non-Delta tables and views. */
  version: number | null;
  numFiles: number | null;
}

export interface ViewInfo extends TableRef {
  /** The SELECT text (no CREATE VIEW prefix). */
  definition: string;
  owner: string | null;
  comment: string | null;
}

export interface FunctionInfo extends TableRef {
  /** Parameter list as written in CREATE FUNCTION, e.g. `ssn STRING, region STRING`. */
  parameters: string;
  /** e.g. `STRING`, `BOOLEAN`. */
  returnType: string;
  /** The SQL expression after RETURN. */
  body: string;
  owner: string | null;
  comment: string | null;
}

export interface VolumeInfo extends TableRef {
  volumeType: 'MANAGED' | 'EXTERNAL';
  storageLocation: string | null;
  owner: string | null;
  comment: string | null;
}

export interface VolumeFile {
  /** Path relative to the volume root, `/`-separated. */
  path: string;
  size: number;
}

export interface HistoryEntry {
  version: number;
  /** ISO 8601. */
  timestamp: string;
  operation: string;
  operationParameters: Record<string, string>;
  operationMetrics: Record<string, string>;
  userName: string | null;
}

export interface TableDetail {
  format: string;
  id: string | null;
  name: string;
  description: string | null;
  location: string | null;
  createdAt: string | null;
  lastModified: string | null;
  partitionColumns: string[];
  numFiles: number;
  sizeInBytes: number;
  properties: Record<string, string>;
  minReaderVersion: number | null;
  minWriterVersion: number | null;
}

/** The six metrics Databricks returns for CLONE. Shallow clones have numCopiedFiles = 0. */
export interface CloneMetrics {
  sourceTableSize: number;
  sourceNumOfFiles: number;
  numRemovedFiles: number;
  numCopiedFiles: number;
  removedFilesSize: number;
  copiedFilesSize: number;
}

export interface RestoreMetrics {
  tableSizeAfterRestore: number;
  numOfFilesAfterRestore: number;
  numRemovedFiles: number;
  numRestoredFiles: number;
  removedFilesSize: number;
  restoredFilesSize: number;
}

export interface TimeTravel {
  version?: number;
  /** ISO 8601 or a Databricks timestamp literal. */
  timestamp?: string;
}

export interface CloneTableOptions extends TimeTravel {
  source: TableRef;
  target: TableRef;
  cloneType: CloneType;
  /** TBLPROPERTIES added to the clone. */
  properties?: Record<string, string>;
  /** External location for the clone (makes it EXTERNAL). */
  location?: string;
  /** CREATE OR REPLACE (default) versus CREATE TABLE IF NOT EXISTS semantics. */
  replace?: boolean;
}

/** A select-based copy (CTAS with a predicate); always copies data. */
export interface CopyTableOptions extends TimeTravel {
  source: TableRef;
  target: TableRef;
  where?: string;
  properties?: Record<string, string>;
  location?: string;
}

export interface CopyMetrics {
  numOutputRows: number;
  numFiles: number;
  bytes: number;
}

export interface ColumnDef {
  name: string;
  type: string;
  nullable?: boolean;
  comment?: string | null;
}

/** A column value for `insertBoundRow`: sent as a bound parameter (never SQL text) and cast to `type`. */
export interface BoundValue {
  name: string;
  /** Databricks type of the column (`string`, `bigint`, `int`, `timestamp`, `binary`, …). */
  type: string;
  value: string | number | boolean | Date | Buffer | null;
}

export interface CreateTableOptions {
  ref: TableRef;
  columns: ColumnDef[];
  format?: DataFormat;
  partitionColumns?: string[];
  properties?: Record<string, string>;
  comment?: string | null;
  location?: string;
}

export interface Grant {
  principal: string;
  privileges: string[];
}

export interface CheckConstraint {
  name: string;
  expression: string;
}

export interface RowFilter {
  /** Three-part function name. */
  functionName: string;
  columns: string[];
}

export interface ColumnMask {
  column: string;
  /** Three-part function name. */
  functionName: string;
  usingColumns: string[];
}

export interface OptimizeMetrics {
  numFilesAdded: number;
  numFilesRemoved: number;
  bytesAdded: number;
  bytesRemoved: number;
}

export interface VacuumResult {
  dryRun: boolean;
  /** Files deleted (or that would be, on a dry run), relative to the table root where possible. */
  files: string[];
  bytes: number;
}

/**
 * Storage of one table by class. Local lakehouse: every file under the table folder, exact. Databricks: active
 * bytes from DESCRIBE DETAIL and the vacuumable file count from VACUUM DRY RUN; figures it cannot know are null
 * and `note` says so.
 */
export interface TableStorageMetrics {
  /** Hours a removed file stays readable by time travel (delta.deletedFileRetentionDuration). */
  retentionHours: number | null;
  totalBytes: number;
  activeBytes: number;
  timeTravelBytes: number | null;
  vacuumableBytes: number | null;
  numTotalFiles: number;
  numActiveFiles: number;
  numTimeTravelFiles: number | null;
  numVacuumableFiles: number | null;
  exact: boolean;
  note: string | null;
}

/** What conversion preflight needs to know of a table (SPEC "Convert", rule 2). */
export interface ConversionFacts {
  /** Partition transforms of an Iceberg table (`identity`, `bucket[4]`, `day`, …); empty otherwise. */
  partitionTransforms: string[];
  /** Columns defined GENERATED ALWAYS AS (…) or as identity columns. */
  generatedColumns: string[];
}

export interface ConvertMetrics {
  numConvertedFiles: number;
}

export interface QueryColumn {
  name: string;
  type: string;
}

export interface QueryResult {
  columns: QueryColumn[];
  /** Values are JS primitives: numbers (bigint when beyond 2^53), strings, booleans, null; nested as arrays/objects. */
  rows: Record<string, unknown>[];
}

/** Row count and per-column NULL counts, computed by the platform in one scan. */
export interface TableStats {
  rowCount: number;
  nullCounts: Record<string, number>;
}

/** What `mergeChanges` did to the target table. */
export interface MergeMetrics {
  numInsertedRows: number;
  numUpdatedRows: number;
  numDeletedRows: number;
}

/** Rows of `table_changes()`: data columns plus `_change_type`, `_commit_version`, `_commit_timestamp`. */
export type ChangeRow = Record<string, unknown> & {
  _change_type: 'insert' | 'update_preimage' | 'update_postimage' | 'delete';
  _commit_version: number;
  _commit_timestamp: string;
};

/** A named parameter of a statement, as Databricks' Statement Execution API takes it: the value as text and a type. */
export interface StatementParameter {
  name: string;
  value: string | null;
  /** A SQL type name (STRING, INT, BIGINT, DOUBLE, DECIMAL(p,s), BOOLEAN, DATE, TIMESTAMP); default STRING. */
  type?: string;
}

export interface StatementOptions {
  /** Bound to `:name` markers; the values are data, never SQL text. */
  parameters?: StatementParameter[];
  /** Rows read at most; the statement stops there and the result says it was truncated. */
  rowLimit: number;
  /** The statement is stopped after this long (DeadlineExceededError). */
  timeoutMs: number;
  /** Aborting stops the running statement (StatementCanceledError). */
  signal?: AbortSignal;
}

/** A statement's first `rowLimit` rows, in column order; values as the port's JS values. */
export interface StatementResult {
  columns: QueryColumn[];
  rows: unknown[][];
  /** More rows existed than `rowLimit`. */
  truncated: boolean;
}

/** A Lakeflow Declarative (DLT) pipeline as `GET /api/2.0/pipelines` lists it. */
export interface PipelineUpdate {
  update_id: string;
  state: string;
  creation_time?: string;
}
export interface PipelineSummary {
  pipeline_id: string;
  name: string;
  state: string;
  latest_updates: PipelineUpdate[];
}
export interface PipelinePage {
  pipelines: PipelineSummary[];
  next_page_token?: string;
}
/** One pipeline: its summary plus where it publishes (the spec's catalog and target schema). */
export interface PipelineDetail extends PipelineSummary {
  catalog: string | null;
  target: string | null;
  /** Tables the pipeline publishes, as `catalog.schema.table` (from the target schema's tables). */
  tables: string[];
}
export interface PipelineListOptions {
  filter?: string;
  pageToken?: string;
  maxResults?: number;
}
