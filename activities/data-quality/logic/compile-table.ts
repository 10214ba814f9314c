import { findCheckFunction } from './catalog';
import { datasetQuery } from './compile-dataset';
import { rowFailure } from './compile-row';
import { ident, lit, tableSql } from './sql-text';
import type { CompiledRun, DqCheck, TableShape } from './types';

/** The samples query's column with the names of the checks a row failed, comma-separated. */
export const FAILED_CHECKS_COLUMN = '_failed_checks';
const TOTAL = '_lw_total';
const ERROR_ANY = '_lw_error_rows';
const WARN_ANY = '_lw_warn_rows';
const WARN_ONLY = '_lw_warn_only_rows';

const keyOf = (c: DqCheck) => c.id ?? c.name;
const isRow = (c: DqCheck) => findCheckFunction(c.check_function)?.level === 'row';

function quotedTable(fqn: string): string {
  const sql = tableSql(fqn);
  if (!sql) throw new Error(`table name must be catalog.schema.table, got ${JSON.stringify(fqn)}`);
  return sql;
}

interface Flags {
  /** `cond AS _lw_cN` for each row check. */
  projections: string[];
  checks: { check: DqCheck; alias: string }[];
  anyError: string;
  anyWarn: string;
}

function flagsOf(rowChecks: DqCheck[], table: TableShape): Flags {
  const checks = rowChecks.map((check, i) => ({ check, alias: `_lw_c${i}` }));
  const anyOf = (crit: string) => {
    const names = checks.filter((c) => c.check.criticality === crit).map((c) => c.alias);
    return names.length ? names.join(' OR ') : 'FALSE';
  };
  return {
    projections: checks.map((c) => `${rowFailure(c.check, table)} AS ${c.alias}`),
    checks,
    anyError: anyOf('error'),
    anyWarn: anyOf('warn'),
  };
}

/**
 * A table's enabled checks as Databricks SQL: every row-level check in ONE scan (a failure count per check and
 * counts of rows failing any error-level / any warn-level check), each dataset-level check as its own query,
 * and one bounded query for failing-row samples. Each check's flag is computed once per row (inner SELECT) and
 * may be NULL for "does not fail": count_if and OR treat it so, and warn-only rows are |warn| − |warn ∩ error|
 * (`warn AND NOT error` would need every flag coalesced, since NOT NULL is NULL; `warn OR error` would be
 * flattened into a third OR over every flag, while `(warn) AND (error)` reuses the two ORs already computed).
 */
export function compileTableRun(
  table: { fqn: string } & TableShape,
  checks: DqCheck[],
  opts: { sampleLimit?: number; relation?: string } = {},
): CompiledRun {
  // `relation` reads a derived table instead (a bounded sample: `(SELECT * FROM t LIMIT 1000)`).
  const t = opts.relation ?? quotedTable(table.fqn);
  const enabled = checks.filter((c) => c.enabled);
  const rowChecks = enabled.filter(isRow);
  const datasetQueries = enabled
    .filter((c) => !isRow(c))
    .map((c) => ({ check: keyOf(c), sql: datasetQuery(c, t, table), kind: c.check_function }));
  if (rowChecks.length === 0) return { rowScan: null, datasetQueries, samplesSql: null };
  const f = flagsOf(rowChecks, table);
  const counts = f.checks.map((c) => `count_if(${c.alias}) AS ${c.alias}`);
  const sql =
    `SELECT count(*) AS ${TOTAL}, count_if(${f.anyError}) AS ${ERROR_ANY}, count_if(${f.anyWarn}) AS ${WARN_ANY}, ` +
    `count_if(${f.anyWarn}) - count_if((${f.anyWarn}) AND (${f.anyError})) AS ${WARN_ONLY}, ${counts.join(', ')} ` +
    `FROM (SELECT ${f.projections.join(', ')} FROM ${t}) AS _lw_flags`;
  const limit = Math.max(1, Math.min(1000, Math.floor(opts.sampleLimit ?? 10)));
  const names = f.checks.map((c) => `CASE WHEN ${c.alias} THEN ${lit(c.check.name)} END`);
  const samplesSql =
    `SELECT ${table.columns.map((c) => ident(c.name)).join(', ')}, concat_ws(', ', ${names.join(', ')}) AS ${ident(FAILED_CHECKS_COLUMN)} ` +
    `FROM (SELECT *, ${f.projections.join(', ')} FROM ${t}) AS _lw_rows WHERE ${f.checks.map((c) => c.alias).join(' OR ')} LIMIT ${limit}`;
  return {
    rowScan: {
      sql,
      totalAlias: TOTAL,
      errorAnyAlias: ERROR_ANY,
      warnAnyAlias: WARN_ANY,
      warnOnlyAlias: WARN_ONLY,
      checkAliases: f.checks.map((c) => ({ check: keyOf(c.check), alias: c.alias })),
    },
    datasetQueries,
    samplesSql,
  };
}

export interface SegmentedScan {
  /** Rows `{segment, total, error_rows, warn_rows}`: one per segment value (NULL = rows without one). */
  sql: string;
}

/** Per-segment totals of the row-level checks from one grouped scan, largest segments first, at most maxSegments. */
export function compileSegmentedScan(
  table: { fqn: string } & TableShape,
  checks: DqCheck[],
  segmentColumn: string,
  maxSegments = 100,
): SegmentedScan {
  const t = quotedTable(table.fqn);
  const rowChecks = checks.filter((c) => c.enabled && isRow(c));
  const f = flagsOf(rowChecks, table);
  const seg = ident(segmentColumn);
  const projections = [`CAST(${seg} AS STRING) AS _lw_segment`, ...f.projections].join(', ');
  return {
    sql:
      `SELECT _lw_segment AS segment, count(*) AS total, count_if(${f.anyError}) AS error_rows, count_if(${f.anyWarn}) AS warn_rows ` +
      `FROM (SELECT ${projections} FROM ${t}) AS _lw_flags GROUP BY _lw_segment ORDER BY total DESC, segment LIMIT ${Math.max(1, Math.floor(maxSegments)) + 1}`,
  };
}
