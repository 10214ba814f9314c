import type { ConversionFacts, TableRef, TableStorageMetrics } from '../../types';
import * as d from '../sql/delta-ops';
import { describeDetailSql } from '../sql/discovery';
import { checkRef } from '../sql/names';
import { firstRow, rows, run, type OpsContext } from './context';
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

export async function renameTable(ctx: OpsContext, ref: TableRef, to: TableRef): Promise<void> {
  await run(ctx, d.renameTableSql(checkRef(ref), checkRef(to)));
}

export async function purgeDeletionVectors(ctx: OpsContext, ref: TableRef): Promise<void> {
  await run(ctx, d.reorgPurgeSql(checkRef(ref)));
}

/** Preflight facts from SHOW CREATE TABLE: GENERATED … columns and the PARTITIONED BY transforms. */
export async function conversionFacts(ctx: OpsContext, ref: TableRef): Promise<ConversionFacts> {
  const row = await firstRow(ctx, d.showCreateTableSql(checkRef(ref)));
  return parseCreateStatement(String(row?.createtab_stmt ?? Object.values(row ?? {})[0] ?? ''));
}

/** The generated/identity columns and partition transforms of a CREATE TABLE statement. */
export function parseCreateStatement(ddl: string): ConversionFacts {
  const generatedColumns: string[] = [];
  for (const m of ddl.matchAll(
    /(?:^|[(,\n])\s*`?([A-Za-z_][\w]*)`?\s+\w[\w<>(), ]*?\s+GENERATED\s+(?:ALWAYS|BY\s+DEFAULT)\s+AS\b/gi,
  ))
    generatedColumns.push(m[1]);
  const partition = balancedAfter(ddl, /PARTITIONED\s+BY\s*\(/i);
  const partitionTransforms = partition
    .split(/,(?![^(]*\))/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const t = /^(\w+)\s*\(/.exec(p);
      return t ? t[1].toLowerCase() : 'identity';
    });
  return { partitionTransforms, generatedColumns };
}

/** The text inside the parentheses opened by `re`'s match (nested parentheses kept), or ''. */
function balancedAfter(text: string, re: RegExp): string {
  const m = re.exec(text);
  if (!m) return '';
  let depth = 1;
  const start = m.index + m[0].length;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(start, i);
  }
  return '';
}
