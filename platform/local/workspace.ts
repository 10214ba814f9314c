import type { Workspace } from '../port';
import type * as T from '../types';
import { LocalContext, type LocalWorkspaceOptions } from './workspace-context';
import * as containers from './workspace-containers';
import * as discovery from './workspace-discovery';
import * as objects from './workspace-objects';
import * as files from './workspace-volume-files';
import * as tables from './workspace-tables';
import * as dml from './workspace-dml';
import * as bound from './workspace-bound-writes';
import * as merge from './workspace-merge';
import * as clone from './workspace-clone';
import * as maintenance from './workspace-maintenance';
import * as storage from './workspace-storage';
import * as convert from './workspace-convert';
import * as stats from './workspace-stats';
import * as changes from './workspace-changes';
import * as gov from './workspace-governance';
import * as policies from './workspace-policies';
import * as constraints from './workspace-constraints';
import { runQuery } from './workspace-sql';
import { executeStatement } from './workspace-statement';
import * as pipelines from './workspace-pipelines';

export type { LocalWorkspaceOptions };

/**
 * The embedded local lakehouse: a Unity-Catalog-like metastore of JSON files under `root`, Delta tables on
 * disk, DuckDB as the SQL engine. Safe for several processes on one root (per-object files, atomic renames,
 * lock files for read-modify-write). Each concern lives in its own workspace-*.ts module.
 */
export class LocalWorkspace implements Workspace {
  readonly kind = 'local' as const;
  readonly id: string;
  private readonly ctx: LocalContext;

  constructor(opts: LocalWorkspaceOptions) {
    this.ctx = new LocalContext(opts);
    this.id = this.ctx.root;
  }

  get root(): string {
    return this.ctx.root;
  }

  // ---- discovery
  listCatalogs = () => discovery.listCatalogs(this.ctx);
  getCatalog = (name: string) => discovery.getCatalog(this.ctx, name);
  listSchemas = (catalog: string) => discovery.listSchemas(this.ctx, catalog);
  getSchema = (catalog: string, schema: string) => discovery.getSchema(this.ctx, catalog, schema);
  listTables = (catalog: string, schema: string) => discovery.listTables(this.ctx, catalog, schema);
  listViews = (catalog: string, schema: string) => discovery.listViews(this.ctx, catalog, schema);
  listFunctions = (catalog: string, schema: string) => discovery.listFunctions(this.ctx, catalog, schema);
  listVolumes = (catalog: string, schema: string) => discovery.listVolumes(this.ctx, catalog, schema);
  tableExists = (ref: T.TableRef) => discovery.tableExists(this.ctx, ref);
  describeTable = (ref: T.TableRef) => discovery.describeTable(this.ctx, ref);
  tableHistory = (ref: T.TableRef, limit?: number) => discovery.tableHistory(this.ctx, ref, limit);
  tableDetail = (ref: T.TableRef) => discovery.tableDetail(this.ctx, ref);

  // ---- containers and objects
  createCatalog = (opts: Parameters<Workspace['createCatalog']>[0]) => containers.createCatalog(this.ctx, opts);
  dropCatalog = (name: string, opts?: { cascade?: boolean; ifExists?: boolean }) =>
    containers.dropCatalog(this.ctx, name, opts);
  createSchema = (opts: Parameters<Workspace['createSchema']>[0]) => containers.createSchema(this.ctx, opts);
  dropSchema = (catalog: string, schema: string, opts?: { cascade?: boolean; ifExists?: boolean }) =>
    containers.dropSchema(this.ctx, catalog, schema, opts);
  createView = (opts: Parameters<Workspace['createView']>[0]) => objects.createView(this.ctx, opts);
  dropView = (ref: T.TableRef, opts?: { ifExists?: boolean }) => objects.dropView(this.ctx, ref, opts);
  createFunction = (opts: Parameters<Workspace['createFunction']>[0]) => objects.createFunction(this.ctx, opts);
  dropFunction = (ref: T.TableRef, opts?: { ifExists?: boolean }) => objects.dropFunction(this.ctx, ref, opts);
  createVolume = (opts: Parameters<Workspace['createVolume']>[0]) => objects.createVolume(this.ctx, opts);
  dropVolume = (ref: T.TableRef, opts?: { ifExists?: boolean }) => objects.dropVolume(this.ctx, ref, opts);
  listVolumeFiles = (ref: T.TableRef) => files.listVolumeFiles(this.ctx, ref);
  readVolumeFile = (ref: T.TableRef, path: string) => files.readVolumeFile(this.ctx, ref, path);
  writeVolumeFile = (ref: T.TableRef, path: string, data: Buffer) => files.writeVolumeFile(this.ctx, ref, path, data);
  localVolumeFolder = (ref: T.TableRef, path: string) => files.localVolumeFolder(this.ctx, ref, path);
  deleteVolumePath = (ref: T.TableRef, path: string) => files.deleteVolumePath(this.ctx, ref, path);
  copyIntoFromVolume = async (ref: T.TableRef, source: Parameters<Workspace['copyIntoFromVolume']>[1]) =>
    dml.appendJsonFiles(this.ctx, ref, await files.volumeFolder(this.ctx, source.volume, source.path));

  // ---- table writes
  createTable = (opts: T.CreateTableOptions) => tables.createTable(this.ctx, opts);
  createTableAs = (opts: Parameters<Workspace['createTableAs']>[0]) =>
    opts?.format && opts.format !== 'DELTA'
      ? convert.createTableAsFormat(this.ctx, { ...opts, format: opts.format })
      : tables.createTableAs(this.ctx, opts);
  insertRows = (ref: T.TableRef, rows: Record<string, unknown>[]) => dml.insertRows(this.ctx, ref, rows);
  insertQuery = (ref: T.TableRef, query: string) => dml.insertQuery(this.ctx, ref, query, 'append');
  insertBoundRow = (ref: T.TableRef, values: T.BoundValue[]) => bound.insertBoundRow(this.ctx, ref, values);
  addColumns = (ref: T.TableRef, columns: T.ColumnDef[]) => bound.addColumns(this.ctx, ref, columns);
  overwriteQuery = (ref: T.TableRef, query: string) => dml.insertQuery(this.ctx, ref, query, 'overwrite');
  deleteWhere = (ref: T.TableRef, predicate: string) => dml.deleteWhere(this.ctx, ref, predicate);
  updateWhere = (ref: T.TableRef, set: Record<string, string>, predicate: string) =>
    dml.updateWhere(this.ctx, ref, set, predicate);
  mergeChanges = (ref: T.TableRef, changes: T.ChangeRow[], opts: { keys: string[] }) =>
    merge.mergeChanges(this.ctx, ref, changes, opts);

  // ---- table operations
  cloneTable = (opts: T.CloneTableOptions) => clone.cloneTable(this.ctx, opts);
  copyTable = (opts: T.CopyTableOptions) => clone.copyTable(this.ctx, opts);
  restoreTable = (ref: T.TableRef, to: T.TimeTravel) => maintenance.restoreTable(this.ctx, ref, to);
  dropTable = (ref: T.TableRef, opts?: { ifExists?: boolean }) => maintenance.dropTable(this.ctx, ref, opts);
  optimizeTable = (ref: T.TableRef) => maintenance.optimizeTable(this.ctx, ref);
  vacuumTable = (ref: T.TableRef, opts?: { retentionHours?: number; dryRun?: boolean }) =>
    maintenance.vacuumTable(this.ctx, ref, opts);
  convertToDelta = (ref: T.TableRef) => maintenance.convertToDelta(this.ctx, ref);
  storageMetrics = (ref: T.TableRef) => storage.storageMetrics(this.ctx, ref);
  renameTable = (ref: T.TableRef, to: T.TableRef) => convert.renameTable(this.ctx, ref, to);
  /** The local Delta engine never writes deletion vectors: nothing to purge (the table must exist). */
  purgeDeletionVectors = async (ref: T.TableRef) => void (await this.ctx.table(this.ctx.ref(ref)));
  conversionFacts = (ref: T.TableRef) => convert.conversionFacts(this.ctx, ref);
  tableChanges = (ref: T.TableRef, start: number, end?: number) => changes.tableChanges(this.ctx, ref, start, end);
  tableStats = (ref: T.TableRef, at?: T.TimeTravel) => stats.tableStats(this.ctx, ref, at);
  tableChecksum = (ref: T.TableRef, at?: T.TimeTravel) => stats.tableChecksum(this.ctx, ref, at);

  // ---- governance
  getOwner = (s: T.Securable) => gov.getOwner(this.ctx, s);
  setOwner = (s: T.Securable, principal: string) => gov.setOwner(this.ctx, s, principal);
  getGrants = (s: T.Securable) => gov.getGrants(this.ctx, s);
  grant = (s: T.Securable, principal: string, privileges: string[]) => gov.grant(this.ctx, s, principal, privileges);
  revoke = (s: T.Securable, principal: string, privileges: string[]) => gov.revoke(this.ctx, s, principal, privileges);
  getTags = (s: T.Securable) => gov.getTags(this.ctx, s);
  setTags = (s: T.Securable, tags: Record<string, string>) => gov.setTags(this.ctx, s, tags);
  unsetTags = (s: T.Securable, keys: string[]) => gov.unsetTags(this.ctx, s, keys);
  getColumnTags = (ref: T.TableRef) => policies.getColumnTags(this.ctx, ref);
  setColumnTags = (ref: T.TableRef, column: string, tags: Record<string, string>) =>
    policies.setColumnTags(this.ctx, ref, column, tags);
  getComment = (s: T.Securable) => gov.getComment(this.ctx, s);
  setComment = (s: T.Securable, comment: string | null) => gov.setComment(this.ctx, s, comment);
  getColumnComments = (ref: T.TableRef) => policies.getColumnComments(this.ctx, ref);
  setColumnComment = (ref: T.TableRef, column: string, comment: string | null) =>
    policies.setColumnComment(this.ctx, ref, column, comment);
  getProperties = (ref: T.TableRef) => policies.getProperties(this.ctx, ref);
  setProperties = (ref: T.TableRef, props: Record<string, string>) => policies.setProperties(this.ctx, ref, props);
  unsetProperties = (ref: T.TableRef, keys: string[]) => policies.unsetProperties(this.ctx, ref, keys);
  listConstraints = async (ref: T.TableRef) =>
    constraints.listConstraintsOf(this.ctx, await this.ctx.table(this.ctx.ref(ref)));
  addCheckConstraint = (ref: T.TableRef, c: T.CheckConstraint) => constraints.addCheckConstraint(this.ctx, ref, c);
  dropConstraint = (ref: T.TableRef, name: string) => constraints.dropConstraint(this.ctx, ref, name);
  getRowFilter = (ref: T.TableRef) => policies.getRowFilter(this.ctx, ref);
  setRowFilter = (ref: T.TableRef, filter: T.RowFilter) => policies.setRowFilter(this.ctx, ref, filter);
  dropRowFilter = (ref: T.TableRef) => policies.dropRowFilter(this.ctx, ref);
  getColumnMasks = (ref: T.TableRef) => policies.getColumnMasks(this.ctx, ref);
  setColumnMask = (ref: T.TableRef, mask: T.ColumnMask) => policies.setColumnMask(this.ctx, ref, mask);
  dropColumnMask = (ref: T.TableRef, column: string) => policies.dropColumnMask(this.ctx, ref, column);

  // ---- SQL
  query = (sql: string) => runQuery(this.ctx, sql);
  executeStatement = (sql: string, opts: T.StatementOptions) => executeStatement(this, this.ctx, sql, opts);
  listPipelines = pipelines.listPipelines;
  getPipeline = pipelines.getPipeline;

  /** Nothing to release: connections are per call and the DuckDB instance is shared by the process. */
  async close(): Promise<void> {}
}
