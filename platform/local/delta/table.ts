import * as path from 'node:path';
import { InvalidInputError } from '../../errors';
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
import { updateMetadata, type MetadataChange } from './alter';
import { changesSql } from './cdf';
import { cloneTo } from './clone';
import type {
  CommitContext,
  CreateDeltaOptions,
  DeltaCloneOptions,
  DeltaSnapshot,
  DeltaTableApi,
  DeltaVacuumOptions,
} from './contract';
import { convertParquet, type ConvertOptions } from './convert';
import { storageBreakdown, type StorageBreakdown } from './file-classes';
import { schemaOf, type Core } from './core';
import { deleteWhere, updateWhere } from './dml';
import { detail, history, toSnapshot } from './info';
import { listLog } from './log';
import { mergeRows, type MergeRowsResult } from './merge';
import { optimize } from './optimize';
import { restore } from './restore';
import { scanOfLogFiles } from './scan-files';
import { describeQuery } from './shape';
import { LogReader } from './snapshot';
import { vacuum } from './vacuum';
import { createTable, writeRows } from './write';

function checkSql(name: string, sql: string): void {
  if (typeof sql !== 'string' || sql.trim() === '') throw new InvalidInputError(`${name}: SQL text is empty`);
}

/** One Delta table = one folder. Instances are cheap; each caches what it has read of the (immutable) log. */
export class DeltaTable implements DeltaTableApi {
  readonly dir: string;
  private readonly core: Core;

  private constructor(dir: string) {
    this.dir = path.resolve(dir);
    this.core = { dir: this.dir, reader: new LogReader(this.dir) };
  }

  static async create(dir: string, opts: CreateDeltaOptions, ctx?: CommitContext): Promise<DeltaTable> {
    const table = new DeltaTable(dir);
    await createTable(table.core, opts.schema, opts, null, ctx);
    return table;
  }

  static async createAs(
    dir: string,
    selectSql: string,
    opts: Omit<CreateDeltaOptions, 'schema'>,
    ctx?: CommitContext,
  ): Promise<DeltaTable> {
    checkSql('selectSql', selectSql);
    const table = new DeltaTable(dir);
    await createTable(table.core, await describeQuery(selectSql), opts, selectSql, ctx);
    return table;
  }

  static async open(dir: string): Promise<DeltaTable> {
    const table = new DeltaTable(dir);
    await table.core.reader.latestVersion();
    return table;
  }

  static async isDeltaTable(dir: string): Promise<boolean> {
    return (await listLog(path.resolve(dir))).commits.length > 0;
  }

  static async convertParquet(dir: string, ctx?: CommitContext, opts?: ConvertOptions): Promise<ConvertMetrics> {
    return convertParquet(new DeltaTable(dir).core, ctx, opts);
  }

  latestVersion(): Promise<number> {
    return this.core.reader.latestVersion();
  }

  async snapshot(at?: TimeTravel): Promise<DeltaSnapshot> {
    return toSnapshot(this.core, await this.core.reader.stateAt(await this.core.reader.resolve(at)));
  }

  history(limit?: number): Promise<HistoryEntry[]> {
    return history(this.core, limit);
  }

  detail(): Promise<TableDetail> {
    return detail(this.core);
  }

  async scanSql(at?: TimeTravel): Promise<string> {
    const state = await this.core.reader.stateAt(await this.core.reader.resolve(at));
    return scanOfLogFiles(this.dir, schemaOf(state.metadata), state.metadata.partitionColumns, [
      ...state.files.values(),
    ]);
  }

  append(selectSql: string, ctx?: CommitContext): Promise<{ version: number; numOutputRows: number }> {
    checkSql('selectSql', selectSql);
    return writeRows(this.core, selectSql, 'Append', ctx);
  }

  overwrite(selectSql: string, ctx?: CommitContext): Promise<{ version: number; numOutputRows: number }> {
    checkSql('selectSql', selectSql);
    return writeRows(this.core, selectSql, 'Overwrite', ctx);
  }

  deleteWhere(predicate: string, ctx?: CommitContext): Promise<{ version: number; numDeletedRows: number }> {
    return deleteWhere(this.core, predicate, ctx);
  }

  updateWhere(
    set: Record<string, string>,
    predicate: string,
    ctx?: CommitContext,
  ): Promise<{ version: number; numUpdatedRows: number }> {
    return updateWhere(this.core, set, predicate, ctx);
  }

  mergeRows(sourceSql: string, keys: string[], ctx?: CommitContext): Promise<MergeRowsResult> {
    checkSql('sourceSql', sourceSql);
    return mergeRows(this.core, sourceSql, keys, ctx);
  }

  updateMetadata(change: MetadataChange, ctx?: CommitContext): Promise<{ version: number }> {
    return updateMetadata(this.core, change, ctx);
  }

  cloneTo(targetDir: string, opts: DeltaCloneOptions, ctx?: CommitContext): Promise<CloneMetrics> {
    return cloneTo(this.core, path.resolve(targetDir), opts, ctx);
  }

  restore(to: TimeTravel, ctx?: CommitContext): Promise<RestoreMetrics> {
    return restore(this.core, to, ctx);
  }

  optimize(ctx?: CommitContext): Promise<OptimizeMetrics> {
    return optimize(this.core, ctx);
  }

  vacuum(opts?: DeltaVacuumOptions): Promise<VacuumResult> {
    return vacuum(this.core, opts);
  }

  storage(opts?: { protectedPaths?: ReadonlySet<string>; now?: number }): Promise<StorageBreakdown> {
    return storageBreakdown(this.core, opts);
  }

  changesSql(startVersion: number, endVersion?: number): Promise<string> {
    return changesSql(this.core, startVersion, endVersion);
  }
}
