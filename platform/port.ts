import type {
  BoundValue,
  CatalogInfo,
  ChangeRow,
  CheckConstraint,
  CloneMetrics,
  CloneTableOptions,
  ColumnDef,
  ColumnMask,
  ConversionFacts,
  ConvertMetrics,
  CopyMetrics,
  CopyTableOptions,
  CreateTableOptions,
  DataFormat,
  FunctionInfo,
  Grant,
  HistoryEntry,
  MergeMetrics,
  OptimizeMetrics,
  PipelineDetail,
  PipelineListOptions,
  PipelinePage,
  QueryResult,
  RestoreMetrics,
  RowFilter,
  SchemaInfo,
  Securable,
  StatementOptions,
  StatementResult,
  TableDescription,
  TableDetail,
  TableInfo,
  TableRef,
  TableStats,
  TableStorageMetrics,
  TimeTravel,
  VacuumResult,
  ViewInfo,
  VolumeFile,
  VolumeInfo,
} from './types';

/**
 * The platform port: one workspace, either a real Databricks workspace or the embedded local lakehouse.
 * Everything above `platform/` talks to this interface only.
 *
 * Conventions:
 * - Unknown objects throw NotFoundError; creating an existing object without replace/ifNotExists throws
 *   AlreadyExistsError; bad names/values throw InvalidInputError before anything is touched; transient
 *   faults throw TransientError (and only those are retried by callers).
 * - Every write is atomic: on failure nothing half-written is visible.
 * - Names are validated with `platform/identifiers.ts`.
 */
export interface Workspace {
  readonly kind: 'local' | 'databricks';
  /** Stable identity: the local root folder or the Databricks host. */
  readonly id: string;

  // ---- discovery ------------------------------------------------------------------------------------
  listCatalogs(): Promise<CatalogInfo[]>;
  getCatalog(name: string): Promise<CatalogInfo>;
  listSchemas(catalog: string): Promise<SchemaInfo[]>;
  getSchema(catalog: string, schema: string): Promise<SchemaInfo>;
  /** Tables only (MANAGED / EXTERNAL), not views. */
  listTables(catalog: string, schema: string): Promise<TableInfo[]>;
  listViews(catalog: string, schema: string): Promise<ViewInfo[]>;
  listFunctions(catalog: string, schema: string): Promise<FunctionInfo[]>;
  listVolumes(catalog: string, schema: string): Promise<VolumeInfo[]>;
  tableExists(ref: TableRef): Promise<boolean>;
  describeTable(ref: TableRef): Promise<TableDescription>;
  /** Newest first, like DESCRIBE HISTORY. */
  tableHistory(ref: TableRef, limit?: number): Promise<HistoryEntry[]>;
  tableDetail(ref: TableRef): Promise<TableDetail>;

  // ---- containers and objects -----------------------------------------------------------------------
  createCatalog(opts: {
    name: string;
    managedLocation?: string;
    comment?: string;
    ifNotExists?: boolean;
  }): Promise<void>;
  dropCatalog(name: string, opts?: { cascade?: boolean; ifExists?: boolean }): Promise<void>;
  createSchema(opts: { catalog: string; name: string; comment?: string; ifNotExists?: boolean }): Promise<void>;
  dropSchema(catalog: string, schema: string, opts?: { cascade?: boolean; ifExists?: boolean }): Promise<void>;
  createView(opts: { ref: TableRef; definition: string; comment?: string | null; replace?: boolean }): Promise<void>;
  dropView(ref: TableRef, opts?: { ifExists?: boolean }): Promise<void>;
  createFunction(opts: {
    ref: TableRef;
    parameters: string;
    returnType: string;
    body: string;
    comment?: string | null;
    replace?: boolean;
  }): Promise<void>;
  dropFunction(ref: TableRef, opts?: { ifExists?: boolean }): Promise<void>;
  createVolume(opts: {
    ref: TableRef;
    volumeType?: 'MANAGED' | 'EXTERNAL';
    storageLocation?: string;
    comment?: string | null;
    ifNotExists?: boolean;
  }): Promise<void>;
  dropVolume(ref: TableRef, opts?: { ifExists?: boolean }): Promise<void>;
  listVolumeFiles(ref: TableRef): Promise<VolumeFile[]>;
  readVolumeFile(ref: TableRef, path: string): Promise<Buffer>;
  writeVolumeFile(ref: TableRef, path: string, data: Buffer): Promise<void>;
  /**
   * The folder on this machine's disk that holds a volume path (created if missing), when the volume lives here (the
   * local lakehouse); null otherwise (Databricks: files go through writeVolumeFile). A writer may put files there
   * directly, each under a name containing `.tmp-` renamed when whole (listings skip such names), as
   * writeVolumeFile does.
   */
  localVolumeFolder(ref: TableRef, path: string): Promise<string | null>;
  /** Deletes a file, or a folder with everything under it, inside a volume; a path that is not there is no error. */
  deleteVolumePath(ref: TableRef, path: string): Promise<void>;

  // ---- table writes (each a new version) ------------------------------------------------------------
  createTable(opts: CreateTableOptions): Promise<void>;
  /** CREATE TABLE AS SELECT; `query` is SQL over catalog.schema.table names of this workspace. */
  createTableAs(opts: {
    ref: TableRef;
    query: string;
    properties?: Record<string, string>;
    comment?: string | null;
    replace?: boolean;
    /** USING iceberg | parquet (default DELTA); not with replace. */
    format?: DataFormat;
  }): Promise<void>;
  insertRows(ref: TableRef, rows: Record<string, unknown>[]): Promise<{ numOutputRows: number }>;
  insertQuery(ref: TableRef, query: string): Promise<{ numOutputRows: number }>;
  /**
   * One row whose values are bound parameters, never SQL text (BINARY too: a BLOB parameter locally, base64 text
   * decoded by `unbase64` on Databricks, whose driver has no binary parameter type). Columns not given are NULL.
   */
  insertBoundRow(ref: TableRef, values: BoundValue[]): Promise<void>;
  /** ALTER TABLE … ADD COLUMNS in one statement: nullable columns appended (an existing name is an error). */
  addColumns(ref: TableRef, columns: ColumnDef[]): Promise<void>;

  /**
   * Appends the rows of the newline-delimited JSON files under a volume folder to a table in one commit (COPY
   * INTO on Databricks): fields match columns by name, values are cast to the column types. With `columns`, each is
   * selected and cast explicitly (Databricks reads JSON objects as structs: a map column needs the conversion).
   */
  copyIntoFromVolume(
    ref: TableRef,
    source: { volume: TableRef; path: string; columns?: { name: string; type: string }[] },
  ): Promise<{ numOutputRows: number }>;
  overwriteQuery(ref: TableRef, query: string): Promise<{ numOutputRows: number }>;
  deleteWhere(ref: TableRef, predicate: string): Promise<{ numDeletedRows: number }>;
  /** `set` maps column → SQL expression. */
  updateWhere(ref: TableRef, set: Record<string, string>, predicate: string): Promise<{ numUpdatedRows: number }>;
  /**
   * Applies change-data-feed rows (as `tableChanges` returns them) in one atomic MERGE by `keys`: per key the
   * last change (by `_commit_version`) wins; `insert` / `update_postimage` replace or add the row, `delete`
   * removes it, `update_preimage` is ignored. Key values must not be NULL.
   */
  mergeChanges(ref: TableRef, changes: ChangeRow[], opts: { keys: string[] }): Promise<MergeMetrics>;

  // ---- table operations ----------------------------------------------------------------------------
  cloneTable(opts: CloneTableOptions): Promise<CloneMetrics>;
  /** Select-based copy (CTAS) with an optional predicate; replaces the target. */
  copyTable(opts: CopyTableOptions): Promise<CopyMetrics>;
  restoreTable(ref: TableRef, to: TimeTravel): Promise<RestoreMetrics>;
  dropTable(ref: TableRef, opts?: { ifExists?: boolean }): Promise<void>;
  optimizeTable(ref: TableRef): Promise<OptimizeMetrics>;
  vacuumTable(ref: TableRef, opts?: { retentionHours?: number; dryRun?: boolean }): Promise<VacuumResult>;
  /** Bytes and files of a table: total, active, time travel, vacuumable (exact locally; see the type). */
  storageMetrics(ref: TableRef): Promise<TableStorageMetrics>;
  /** ALTER TABLE … RENAME TO (within the catalog). */
  renameTable(ref: TableRef, to: TableRef): Promise<void>;
  /** REORG TABLE … APPLY (PURGE): rewrites files with deletion vectors (none on the local lakehouse). */
  purgeDeletionVectors(ref: TableRef): Promise<void>;
  /** Partition transforms and generated/identity columns, for conversion preflight. */
  conversionFacts(ref: TableRef): Promise<ConversionFacts>;
  /** CONVERT TO DELTA of a Parquet (or Iceberg) table in place. */
  convertToDelta(ref: TableRef): Promise<ConvertMetrics>;
  /** Change data feed between two versions (inclusive); needs delta.enableChangeDataFeed. */
  tableChanges(ref: TableRef, startVersion: number, endVersion?: number): Promise<ChangeRow[]>;
  /** Row count and NULL count per column, optionally at a version. */
  tableStats(ref: TableRef, at?: TimeTravel): Promise<TableStats>;
  /** Order-independent, null-safe checksum over all columns; equal data gives equal strings on one platform. */
  tableChecksum(ref: TableRef, at?: TimeTravel): Promise<string>;

  // ---- governance ----------------------------------------------------------------------------------
  getOwner(s: Securable): Promise<string | null>;
  setOwner(s: Securable, principal: string): Promise<void>;
  getGrants(s: Securable): Promise<Grant[]>;
  grant(s: Securable, principal: string, privileges: string[]): Promise<void>;
  revoke(s: Securable, principal: string, privileges: string[]): Promise<void>;
  getTags(s: Securable): Promise<Record<string, string>>;
  setTags(s: Securable, tags: Record<string, string>): Promise<void>;
  unsetTags(s: Securable, keys: string[]): Promise<void>;
  /** column → tags */
  getColumnTags(ref: TableRef): Promise<Record<string, Record<string, string>>>;
  setColumnTags(ref: TableRef, column: string, tags: Record<string, string>): Promise<void>;
  getComment(s: Securable): Promise<string | null>;
  setComment(s: Securable, comment: string | null): Promise<void>;
  /** column → comment (only commented columns). */
  getColumnComments(ref: TableRef): Promise<Record<string, string>>;
  setColumnComment(ref: TableRef, column: string, comment: string | null): Promise<void>;
  getProperties(ref: TableRef): Promise<Record<string, string>>;
  setProperties(ref: TableRef, props: Record<string, string>): Promise<void>;
  unsetProperties(ref: TableRef, keys: string[]): Promise<void>;
  listConstraints(ref: TableRef): Promise<CheckConstraint[]>;
  addCheckConstraint(ref: TableRef, c: CheckConstraint): Promise<void>;
  dropConstraint(ref: TableRef, name: string): Promise<void>;
  getRowFilter(ref: TableRef): Promise<RowFilter | null>;
  setRowFilter(ref: TableRef, filter: RowFilter): Promise<void>;
  dropRowFilter(ref: TableRef): Promise<void>;
  getColumnMasks(ref: TableRef): Promise<ColumnMask[]>;
  setColumnMask(ref: TableRef, mask: ColumnMask): Promise<void>;
  dropColumnMask(ref: TableRef, column: string): Promise<void>;

  // ---- SQL -----------------------------------------------------------------------------------------
  /**
   * Runs a read-only query in Databricks SQL. `catalog.schema.table` names resolve to tables and views of
   * this workspace, with `VERSION AS OF n` / `TIMESTAMP AS OF 'ts'` time travel. Row filters and column
   * masks apply. Rejects statements that write.
   */
  query(sql: string): Promise<QueryResult>;
  /**
   * One read-only statement for a person at the workbench: `:name` markers bound to `parameters` (values are
   * data), rows streamed and the statement stopped after `rowLimit` rows (`truncated`), stopped at `timeoutMs`
   * (DeadlineExceededError) or when `signal` aborts (StatementCanceledError). Same name resolution, time travel,
   * row filters and column masks as `query`.
   */
  executeStatement(sql: string, opts: StatementOptions): Promise<StatementResult>;

  // ---- DLT pipelines (discovery only) --------------------------------------------------------------
  /** One page of pipelines; `filter` and `pageToken` pass to the platform unchanged (local: none). */
  listPipelines(opts?: PipelineListOptions): Promise<PipelinePage>;
  /** One pipeline with the tables it publishes; NotFoundError when there is none by that id. */
  getPipeline(id: string): Promise<PipelineDetail>;

  /** Releases connections and file handles. */
  close(): Promise<void>;
}
