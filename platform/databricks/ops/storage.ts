import type { TableRef, TableStorageMetrics } from '../../types';
import * as d from '../sql/delta-ops';
import { describeDetailSql } from '../sql/discovery';
import { checkRef } from '../sql/names';
import { firstRow, rows, type OpsContext } from './context';
import { num } from './mappers';

export const DATABRICKS_STORAGE_NOTE =
  'Databricks: active bytes and files from DESCRIBE DETAIL; vacuumable files counted by VACUUM … DRY RUN ' +
  '(which lists paths, not sizes); vacuumable and time-travel bytes are not available, so total_bytes is the ' +
  'active bytes only';

/**
 * Storage of a Databricks table from what a SQL warehouse can tell without a storage listing: `DESCRIBE DETAIL`
 * (sizeInBytes, numFiles of the current snapshot) and `VACUUM … DRY RUN` at the default retention (the files a
 * VACUUM would delete). Bytes it cannot know are null.
 */
export async function storageMetrics(ctx: OpsContext, ref: TableRef): Promise<TableStorageMetrics> {
  checkRef(ref);
  const detail = await firstRow(ctx, describeDetailSql(ref));
  const candidates = await rows(ctx, d.vacuumSql(ref, { dryRun: true }));
  const active = num(detail?.sizeInBytes);
  const activeFiles = num(detail?.numFiles);
  const vacuumableFiles = candidates.filter((r) => String(r.path ?? '') !== '').length;
  return {
    retentionHours: null,
    totalBytes: active,
    activeBytes: active,
    timeTravelBytes: null,
    vacuumableBytes: null,
    numTotalFiles: activeFiles + vacuumableFiles,
    numActiveFiles: activeFiles,
    numTimeTravelFiles: null,
    numVacuumableFiles: vacuumableFiles,
    exact: false,
    note: DATABRICKS_STORAGE_NOTE,
  };
}
