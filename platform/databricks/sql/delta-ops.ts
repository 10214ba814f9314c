import { InvalidInputError } from '../../errors';
import type { CloneTableOptions, CopyTableOptions, TableRef, TimeTravel } from '../../types';
import { singleStatement } from './fragments';
import { keyValueList, lit, nonNegativeInt, tableName, timeTravel } from './quote';

/** Delta table operations: clone, select-based copy, restore, optimize, vacuum, convert, UniForm, CDF. */
const props = (p: Record<string, string> | undefined) =>
  p && Object.keys(p).length ? ` TBLPROPERTIES ${keyValueList(p)}` : '';
const location = (l: string | undefined) => (l === undefined ? '' : ` LOCATION ${lit(l)}`);

/** `CREATE OR REPLACE TABLE t DEEP|SHALLOW CLONE s [VERSION AS OF n] [TBLPROPERTIES (...)] [LOCATION '...']` */
export function cloneTableSql(o: CloneTableOptions): string {
  if (o.cloneType !== 'DEEP' && o.cloneType !== 'SHALLOW') {
    throw new InvalidInputError(`cloneType must be DEEP or SHALLOW, got ${JSON.stringify(o.cloneType)}`);
  }
  const head = o.replace === false ? 'CREATE TABLE IF NOT EXISTS' : 'CREATE OR REPLACE TABLE';
  return `${head} ${tableName(o.target)} ${o.cloneType} CLONE ${tableName(o.source)}${timeTravel(o)}${props(o.properties)}${location(o.location)}`;
}

/** CTAS copy with an optional predicate; the predicate is user SQL and must be one expression. */
export function copyTableSql(o: CopyTableOptions): string {
  const where = o.where === undefined ? '' : ` WHERE ${singleStatement(o.where, 'where')}`;
  return `CREATE OR REPLACE TABLE ${tableName(o.target)}${props(o.properties)}${location(o.location)} AS SELECT * FROM ${tableName(o.source)}${timeTravel(o)}${where}`;
}

export function createTableAsSql(o: {
  ref: TableRef;
  query: string;
  properties?: Record<string, string>;
  comment?: string | null;
  replace?: boolean;
  format?: 'DELTA' | 'PARQUET' | 'ICEBERG';
}): string {
  const comment = o.comment === null || o.comment === undefined ? '' : ` COMMENT ${lit(o.comment)}`;
  const head = o.replace ? 'CREATE OR REPLACE TABLE' : 'CREATE TABLE';
  const using = o.format && o.format !== 'DELTA' ? ` USING ${usingFormat(o.format)}` : '';
  return `${head} ${tableName(o.ref)}${using}${comment}${props(o.properties)} AS ${singleStatement(o.query, 'query')}`;
}

function usingFormat(f: string): string {
  if (f !== 'PARQUET' && f !== 'ICEBERG')
    throw new InvalidInputError(`format must be DELTA, PARQUET or ICEBERG, got ${f}`);
  return f.toLowerCase();
}

export function renameTableSql(ref: TableRef, to: TableRef): string {
  return `ALTER TABLE ${tableName(ref)} RENAME TO ${tableName(to)}`;
}

/** Columns generated or identity, and the CREATE statement (partition transforms) of a table. */
export function showCreateTableSql(ref: TableRef): string {
  return `SHOW CREATE TABLE ${tableName(ref)}`;
}

export function restoreTableSql(ref: TableRef, to: TimeTravel): string {
  const target = timeTravel(to);
  if (target === '') throw new InvalidInputError('restore needs a version or a timestamp');
  return `RESTORE TABLE ${tableName(ref)} TO${target}`;
}

export function optimizeSql(ref: TableRef): string {
  return `OPTIMIZE ${tableName(ref)}`;
}

export function vacuumSql(ref: TableRef, o: { retentionHours?: number; dryRun?: boolean } = {}): string {
  const retain =
    o.retentionHours === undefined ? '' : ` RETAIN ${nonNegativeInt(o.retentionHours, 'retentionHours')} HOURS`;
  return `VACUUM ${tableName(ref)}${retain}${o.dryRun ? ' DRY RUN' : ''}`;
}

export function convertToDeltaSql(ref: TableRef): string {
  return `CONVERT TO DELTA ${tableName(ref)}`;
}

/** The two properties that make a Delta table readable as Iceberg (UniForm). */
export const UNIFORM_PROPERTIES: Readonly<Record<string, string>> = {
  'delta.enableIcebergCompatV2': 'true',
  'delta.universalFormat.enabledFormats': 'iceberg',
};

export function enableUniformSql(ref: TableRef): string {
  return `ALTER TABLE ${tableName(ref)} SET TBLPROPERTIES ${keyValueList({ ...UNIFORM_PROPERTIES })}`;
}

/** Rewrites existing files so UniForm can be enabled on a table that already has data. */
export function reorgUpgradeUniformSql(ref: TableRef): string {
  return `REORG TABLE ${tableName(ref)} APPLY (UPGRADE UNIFORM(ICEBERG_COMPAT_VERSION=2))`;
}

/** Purges deletion vectors, which Iceberg compatibility does not allow. */
export function reorgPurgeSql(ref: TableRef): string {
  return `REORG TABLE ${tableName(ref)} APPLY (PURGE)`;
}

/** table_changes() takes the table name as a string; quoted parts keep odd names intact. */
export function tableChangesSql(ref: TableRef, startVersion: number, endVersion?: number): string {
  const start = nonNegativeInt(startVersion, 'startVersion');
  const end = endVersion === undefined ? '' : `, ${nonNegativeInt(endVersion, 'endVersion')}`;
  if (endVersion !== undefined && endVersion < startVersion)
    throw new InvalidInputError('endVersion is before startVersion');
  return `SELECT * FROM table_changes(${lit(tableName(ref))}, ${start}${end}) ORDER BY _commit_version`;
}
