import type {
  ChangeRow,
  CloneMetrics,
  CloneTableOptions,
  ConvertMetrics,
  CopyMetrics,
  CopyTableOptions,
  OptimizeMetrics,
  RestoreMetrics,
  TableRef,
  TableStats,
  TimeTravel,
  VacuumResult,
} from '../../types';
import { InvalidInputError } from '../../errors';
import * as d from '../sql/delta-ops';
import { describeDetailSql, describeHistorySql } from '../sql/discovery';
import { checkRef } from '../sql/names';
import { schemaProbeSql, tableChecksumSql, tableStatsSql } from '../sql/stats';
import { firstRow, rows, run, type OpsContext } from './context';
import { cloneMetrics, iso, num, restoreMetrics, stringMap } from './mappers';

/** Delta table operations. Each returns the metrics Databricks reports, mapped to the port's shapes. */
export async function cloneTable(ctx: OpsContext, o: CloneTableOptions): Promise<CloneMetrics> {
  checkRef(o.source, 'source');
  checkRef(o.target, 'target');
  if (sameRef(o.source, o.target)) throw new InvalidInputError('clone source and target must differ');
  return cloneMetrics(await firstRow(ctx, d.cloneTableSql(o)));
}

/** CTAS, then the new version's history metrics (files, rows, bytes written). */
export async function copyTable(ctx: OpsContext, o: CopyTableOptions): Promise<CopyMetrics> {
  checkRef(o.source, 'source');
  checkRef(o.target, 'target');
  await run(ctx, d.copyTableSql(o));
  const latest = await firstRow(ctx, describeHistorySql(o.target, 1));
  const m = stringMap(latest?.operationMetrics);
  return { numOutputRows: num(m.numOutputRows), numFiles: num(m.numFiles), bytes: num(m.numOutputBytes) };
}

export async function restoreTable(ctx: OpsContext, ref: TableRef, to: TimeTravel): Promise<RestoreMetrics> {
  return restoreMetrics(await firstRow(ctx, d.restoreTableSql(checkRef(ref), to)));
}

export async function optimizeTable(ctx: OpsContext, ref: TableRef): Promise<OptimizeMetrics> {
  const row = await firstRow(ctx, d.optimizeSql(checkRef(ref)));
  let m = row?.metrics as Record<string, unknown> | string | undefined;
  if (typeof m === 'string') m = JSON.parse(m) as Record<string, unknown>;
  const size = (v: unknown) => num((v as { totalSize?: unknown } | undefined)?.totalSize);
  return {
    numFilesAdded: num(m?.numFilesAdded),
    numFilesRemoved: num(m?.numFilesRemoved),
    bytesAdded: size(m?.filesAdded),
    bytesRemoved: size(m?.filesRemoved),
  };
}

/**
 * VACUUM does not report what it deleted, so the candidate list comes from a DRY RUN with the same
 * retention just before it; paths are made relative to the table location from DESCRIBE DETAIL.
 * Databricks reports no file sizes for vacuum, so `bytes` is 0.
 */
export async function vacuumTable(
  ctx: OpsContext,
  ref: TableRef,
  o: { retentionHours?: number; dryRun?: boolean } = {},
) {
  checkRef(ref);
  const location = String((await firstRow(ctx, describeDetailSql(ref)))?.location ?? '');
  const candidates = await rows(ctx, d.vacuumSql(ref, { retentionHours: o.retentionHours, dryRun: true }));
  if (!o.dryRun) await run(ctx, d.vacuumSql(ref, { retentionHours: o.retentionHours }));
  const prefix = location.replace(/\/+$/, '') + '/';
  const files = candidates
    .map((r) => String(r.path ?? ''))
    .filter((p) => p !== '')
    .map((p) => (location && p.startsWith(prefix) ? p.slice(prefix.length) : p));
  const result: VacuumResult = { dryRun: Boolean(o.dryRun), files, bytes: 0 };
  return result;
}

export async function convertToDelta(ctx: OpsContext, ref: TableRef): Promise<ConvertMetrics> {
  await run(ctx, d.convertToDeltaSql(checkRef(ref)));
  const latest = await firstRow(ctx, describeHistorySql(ref, 1));
  return { numConvertedFiles: num(stringMap(latest?.operationMetrics).numConvertedFiles) };
}

/** Sets the UniForm properties, rewriting existing files first when the table already has data. */
export async function enableUniform(
  ctx: OpsContext,
  ref: TableRef,
  o: { rewriteExisting?: boolean } = {},
): Promise<void> {
  checkRef(ref);
  if (o.rewriteExisting) await run(ctx, d.reorgUpgradeUniformSql(ref));
  else await run(ctx, d.enableUniformSql(ref));
}

export async function tableChanges(ctx: OpsContext, ref: TableRef, start: number, end?: number): Promise<ChangeRow[]> {
  const list = await rows(ctx, d.tableChangesSql(checkRef(ref), start, end));
  return list.map((r) => ({
    ...r,
    _change_type: r._change_type as ChangeRow['_change_type'],
    _commit_version: num(r._commit_version),
    _commit_timestamp: iso(r._commit_timestamp) ?? '',
  }));
}

/** The schema at that version, read from an empty result (works for time travel across schema changes). */
async function columnsAt(ctx: OpsContext, ref: TableRef, at?: TimeTravel) {
  return (await run(ctx, schemaProbeSql(ref, at))).columns;
}

export async function tableStats(ctx: OpsContext, ref: TableRef, at?: TimeTravel): Promise<TableStats> {
  checkRef(ref);
  const columns = await columnsAt(ctx, ref, at);
  const row =
    (await firstRow(
      ctx,
      tableStatsSql(
        ref,
        columns.map((c) => c.name),
        at,
      ),
    )) ?? {};
  return {
    rowCount: num(row.row_count),
    nullCounts: Object.fromEntries(columns.map((c, i) => [c.name, num(row[`n${i}`])])),
  };
}

export async function tableChecksum(ctx: OpsContext, ref: TableRef, at?: TimeTravel): Promise<string> {
  checkRef(ref);
  const columns = await columnsAt(ctx, ref, at);
  return String((await firstRow(ctx, tableChecksumSql(ref, columns, at)))?.checksum ?? '0:0');
}

/** Unity Catalog names are case-insensitive. */
function sameRef(a: TableRef, b: TableRef): boolean {
  return (
    [a.catalog, a.schema, a.name].join('.').toLowerCase() === [b.catalog, b.schema, b.name].join('.').toLowerCase()
  );
}
