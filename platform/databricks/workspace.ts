import type { Workspace } from '../port';
import type * as T from '../types';
import { resolveConfig, type DatabricksConfig, type ResolvedConfig } from './config';
import type { OpsContext } from './ops/context';
import * as disc from './ops/discovery';
import * as gov from './ops/governance';
import * as bound from './ops/bound-writes';
import * as obj from './ops/objects';
import { runQuery } from './ops/query';
import { executeStatement } from './ops/statement';
import * as storage from './ops/storage';
import * as tbl from './ops/tables';
import { FilesApi } from './rest/files';
import { PipelinesApi, pipelineDetail } from './rest/pipelines';
import { SqlWarehousesApi } from './rest/warehouses';
import { UnityCatalogApi } from './rest/unity-catalog';
import { WorkspaceApi } from './rest/workspace-api';

type Ref = T.TableRef;
type S = T.Securable;

/** The platform port over a real Databricks workspace: SQL through a warehouse, Unity Catalog over REST. */
export class DatabricksWorkspace implements Workspace {
  readonly kind = 'databricks' as const;
  readonly id: string;
  readonly warehouseId: string;
  /** REST clients for what the port does not cover (warehouses, Jobs, serving endpoints, effective grants). */
  readonly rest: {
    uc: UnityCatalogApi;
    workspace: WorkspaceApi;
    files: FilesApi;
    pipelines: PipelinesApi;
    warehouses: SqlWarehousesApi;
  };
  private readonly ctx: OpsContext;

  constructor(resolved: ResolvedConfig) {
    this.id = resolved.host;
    this.warehouseId = resolved.warehouseId;
    this.rest = {
      uc: new UnityCatalogApi(resolved.http),
      workspace: new WorkspaceApi(resolved.http),
      files: new FilesApi(resolved.http),
      pipelines: new PipelinesApi(resolved.http),
      warehouses: new SqlWarehousesApi(resolved.http),
    };
    const tokens = resolved.tokens;
    this.ctx = { sql: resolved.sql, uc: this.rest.uc, files: this.rest.files, secrets: () => tokens.secrets() };
  }

  /** What a log line or job record may show: never a credential. */
  toJSON() {
    return { kind: this.kind, id: this.id, warehouseId: this.warehouseId };
  }

  listCatalogs = () => disc.listCatalogs(this.ctx);
  getCatalog = (name: string) => disc.getCatalog(this.ctx, name);
  listSchemas = (catalog: string) => disc.listSchemas(this.ctx, catalog);
  getSchema = (catalog: string, schema: string) => disc.getSchema(this.ctx, catalog, schema);
  listTables = (catalog: string, schema: string) => disc.listTables(this.ctx, catalog, schema);
  listViews = (catalog: string, schema: string) => disc.listViews(this.ctx, catalog, schema);
  listFunctions = (catalog: string, schema: string) => disc.listFunctions(this.ctx, catalog, schema);
  listVolumes = (catalog: string, schema: string) => disc.listVolumes(this.ctx, catalog, schema);
  tableExists = (ref: Ref) => disc.tableExists(this.ctx, ref);
  describeTable = (ref: Ref) => disc.describeTable(this.ctx, ref);
  tableHistory = (ref: Ref, limit?: number) => disc.tableHistory(this.ctx, ref, limit);
  tableDetail = (ref: Ref) => disc.tableDetail(this.ctx, ref);

  createCatalog = (o: Parameters<Workspace['createCatalog']>[0]) => obj.createCatalog(this.ctx, o);
  dropCatalog = (name: string, o?: { cascade?: boolean; ifExists?: boolean }) => obj.dropCatalog(this.ctx, name, o);
  createSchema = (o: Parameters<Workspace['createSchema']>[0]) => obj.createSchema(this.ctx, o);
  dropSchema = (c: string, s: string, o?: { cascade?: boolean; ifExists?: boolean }) =>
    obj.dropSchema(this.ctx, c, s, o);
  createView = (o: Parameters<Workspace['createView']>[0]) => obj.createView(this.ctx, o);
  dropView = (ref: Ref, o?: { ifExists?: boolean }) => obj.dropObject(this.ctx, 'VIEW', ref, o);
  createFunction = (o: Parameters<Workspace['createFunction']>[0]) => obj.createFunction(this.ctx, o);
  dropFunction = (ref: Ref, o?: { ifExists?: boolean }) => obj.dropObject(this.ctx, 'FUNCTION', ref, o);
  createVolume = (o: Parameters<Workspace['createVolume']>[0]) => obj.createVolume(this.ctx, o);
  dropVolume = (ref: Ref, o?: { ifExists?: boolean }) => obj.dropObject(this.ctx, 'VOLUME', ref, o);
  listVolumeFiles = (ref: Ref) => obj.listVolumeFiles(this.ctx, ref);
  readVolumeFile = (ref: Ref, path: string) => obj.readVolumeFile(this.ctx, ref, path);
  writeVolumeFile = (ref: Ref, path: string, data: Buffer) => obj.writeVolumeFile(this.ctx, ref, path, data);
  /** A Unity Catalog volume is never on this machine's disk. */
  localVolumeFolder = async (_ref: Ref, _path: string): Promise<string | null> => null;
  deleteVolumePath = (ref: Ref, path: string) => obj.deleteVolumePath(this.ctx, ref, path);
  copyIntoFromVolume = (ref: Ref, source: Parameters<Workspace['copyIntoFromVolume']>[1]) =>
    obj.copyIntoFromVolume(this.ctx, ref, source);

  createTable = (o: T.CreateTableOptions) => obj.createTable(this.ctx, o);
  createTableAs = (o: Parameters<Workspace['createTableAs']>[0]) => obj.createTableAs(this.ctx, o);
  insertRows = (ref: Ref, rows: Record<string, unknown>[]) => obj.insertRows(this.ctx, ref, rows);
  insertQuery = (ref: Ref, query: string) => obj.insertQuery(this.ctx, ref, query);
  insertBoundRow = (ref: Ref, values: T.BoundValue[]) => bound.insertBoundRow(this.ctx, ref, values);
  addColumns = (ref: Ref, columns: T.ColumnDef[]) => bound.addColumns(this.ctx, ref, columns);
  overwriteQuery = (ref: Ref, query: string) => obj.overwriteQuery(this.ctx, ref, query);
  deleteWhere = (ref: Ref, predicate: string) => obj.deleteWhere(this.ctx, ref, predicate);
  updateWhere = (ref: Ref, set: Record<string, string>, predicate: string) =>
    obj.updateWhere(this.ctx, ref, set, predicate);
  mergeChanges = (ref: Ref, changes: T.ChangeRow[], opts: { keys: string[] }) =>
    obj.mergeChanges(this.ctx, ref, changes, opts);

  cloneTable = (o: T.CloneTableOptions) => tbl.cloneTable(this.ctx, o);
  copyTable = (o: T.CopyTableOptions) => tbl.copyTable(this.ctx, o);
  restoreTable = (ref: Ref, to: T.TimeTravel) => tbl.restoreTable(this.ctx, ref, to);
  dropTable = (ref: Ref, o?: { ifExists?: boolean }) => obj.dropObject(this.ctx, 'TABLE', ref, o);
  optimizeTable = (ref: Ref) => tbl.optimizeTable(this.ctx, ref);
  vacuumTable = (ref: Ref, o?: { retentionHours?: number; dryRun?: boolean }) => tbl.vacuumTable(this.ctx, ref, o);
  convertToDelta = (ref: Ref) => tbl.convertToDelta(this.ctx, ref);
  storageMetrics = (ref: Ref) => storage.storageMetrics(this.ctx, ref);
  renameTable = (ref: Ref, to: Ref) => storage.renameTable(this.ctx, ref, to);
  purgeDeletionVectors = (ref: Ref) => storage.purgeDeletionVectors(this.ctx, ref);
  conversionFacts = (ref: Ref) => storage.conversionFacts(this.ctx, ref);
  tableChanges = (ref: Ref, start: number, end?: number) => tbl.tableChanges(this.ctx, ref, start, end);
  tableStats = (ref: Ref, at?: T.TimeTravel) => tbl.tableStats(this.ctx, ref, at);
  tableChecksum = (ref: Ref, at?: T.TimeTravel) => tbl.tableChecksum(this.ctx, ref, at);
  /** Databricks-only: make a Delta table readable as Iceberg (UniForm). */
  enableUniform = (ref: Ref, o?: { rewriteExisting?: boolean }) => tbl.enableUniform(this.ctx, ref, o);

  getOwner = (s: S) => gov.getOwner(this.ctx, s);
  setOwner = (s: S, principal: string) => gov.setOwner(this.ctx, s, principal);
  getGrants = (s: S) => gov.getGrants(this.ctx, s);
  grant = (s: S, principal: string, privileges: string[]) => gov.grant(this.ctx, s, principal, privileges);
  revoke = (s: S, principal: string, privileges: string[]) => gov.revoke(this.ctx, s, principal, privileges);
  getTags = (s: S) => gov.getTags(this.ctx, s);
  setTags = (s: S, tags: Record<string, string>) => gov.setTags(this.ctx, s, tags);
  unsetTags = (s: S, keys: string[]) => gov.unsetTags(this.ctx, s, keys);
  getColumnTags = (ref: Ref) => gov.getColumnTags(this.ctx, ref);
  setColumnTags = (ref: Ref, column: string, tags: Record<string, string>) =>
    gov.setColumnTags(this.ctx, ref, column, tags);
  getComment = (s: S) => gov.getComment(this.ctx, s);
  setComment = (s: S, comment: string | null) => gov.setComment(this.ctx, s, comment);
  getColumnComments = (ref: Ref) => gov.getColumnComments(this.ctx, ref);
  setColumnComment = (ref: Ref, column: string, comment: string | null) =>
    gov.setColumnComment(this.ctx, ref, column, comment);
  getProperties = (ref: Ref) => gov.getProperties(this.ctx, ref);
  setProperties = (ref: Ref, props: Record<string, string>) => gov.setProperties(this.ctx, ref, props);
  unsetProperties = (ref: Ref, keys: string[]) => gov.unsetProperties(this.ctx, ref, keys);
  listConstraints = (ref: Ref) => gov.listConstraints(this.ctx, ref);
  addCheckConstraint = (ref: Ref, c: T.CheckConstraint) => gov.addCheckConstraint(this.ctx, ref, c);
  dropConstraint = (ref: Ref, name: string) => gov.dropConstraint(this.ctx, ref, name);
  getRowFilter = (ref: Ref) => gov.getRowFilter(this.ctx, ref);
  setRowFilter = (ref: Ref, f: T.RowFilter) => gov.setRowFilter(this.ctx, ref, f);
  dropRowFilter = (ref: Ref) => gov.dropRowFilter(this.ctx, ref);
  getColumnMasks = (ref: Ref) => gov.getColumnMasks(this.ctx, ref);
  setColumnMask = (ref: Ref, m: T.ColumnMask) => gov.setColumnMask(this.ctx, ref, m);
  dropColumnMask = (ref: Ref, column: string) => gov.dropColumnMask(this.ctx, ref, column);

  query = (sql: string) => runQuery(this.ctx, sql);
  executeStatement = (sql: string, opts: T.StatementOptions) => executeStatement(this.ctx, sql, opts);
  listPipelines = (opts?: T.PipelineListOptions) => this.rest.pipelines.list(opts);
  getPipeline = (id: string) => pipelineDetail(this.rest.pipelines, id, (c, s) => this.rest.uc.listTables(c, s));
  close = () => this.ctx.sql.close();
}

export async function createDatabricksWorkspace(config: DatabricksConfig): Promise<DatabricksWorkspace> {
  return new DatabricksWorkspace(await resolveConfig(config));
}
