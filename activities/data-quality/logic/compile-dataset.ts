import { canonicalType, parseSchemaDdl } from './schema-ddl';
import { ident, lit, num, tableSql } from './sql-text';
import type { DqCheck, TableShape } from './types';

type Args = Record<string, unknown>;
interface Ctx {
  t: string;
  table: TableShape;
  /** ` WHERE filter` (or '') scoping the checked rows. */
  where: string;
  /** ` AND filter` (or ''). */
  and: string;
}
const cols = (a: Args, key: string) => (a[key] as string[]).map(ident);
const ref = (a: Args) => tableSql(String(a.ref_table)) as string;

function aggr(a: Args, column = ident(String(a.column))): string {
  const type = String(a.aggr_type ?? 'count').toLowerCase();
  const p = (a.aggr_params as Args | undefined)?.percentile;
  if (type === 'count_distinct') return `count(DISTINCT ${column})`;
  if (type === 'percentile' || type === 'approx_percentile') return `${type}(${column}, ${num(Number(p ?? 0.5))})`;
  return `${type}(${column})`;
}
function aggrFails(fn: string, v: string, a: Args): string {
  const limit = num(Number(a.limit));
  const tol = `greatest(${num(Number(a.abs_tolerance ?? 0))}, ${num(Number(a.rel_tolerance ?? 0))} * abs(${limit}))`;
  if (fn === 'is_aggr_not_greater_than') return `${v} > ${limit}`;
  if (fn === 'is_aggr_not_less_than') return `${v} < ${limit}`;
  if (fn === 'is_aggr_equal') return `abs(${v} - ${limit}) > ${tol}`;
  return `abs(${v} - ${limit}) <= ${tol}`;
}
function aggrCheck(fn: string, a: Args, c: Ctx): string {
  if (!Array.isArray(a.group_by) || a.group_by.length === 0) {
    return `SELECT CASE WHEN coalesce(${aggrFails(fn, aggr(a), a)}, FALSE) THEN count(*) ELSE 0 END AS failures FROM ${c.t}${c.where}`;
  }
  const g = cols(a, 'group_by').join(', ');
  return (
    `SELECT coalesce(sum(CASE WHEN coalesce(${aggrFails(fn, '_lw_v', a)}, FALSE) THEN _lw_n ELSE 0 END), 0) AS failures ` +
    `FROM (SELECT count(*) AS _lw_n, ${aggr(a)} AS _lw_v FROM ${c.t}${c.where} GROUP BY ${g}) AS _lw_g`
  );
}
const keysMatch = (a: Args, left: string, right: string) =>
  cols(a, 'columns')
    .map((k, i) => `${right}.${cols(a, 'ref_columns')[i]} <=> ${left}.${k}`)
    .join(' AND ');
const windowOf = (a: Args) =>
  `floor(unix_timestamp(${ident(String(a.column))}) / ${num(Number(a.window_minutes) * 60)})`;
const nowTs = (v: unknown) => (typeof v === 'string' ? `CAST(${lit(v)} AS TIMESTAMP)` : 'current_timestamp()');

function schemaFails(a: Args, table: TableShape): boolean {
  const expected = parseSchemaDdl(String(a.expected_schema)) ?? [];
  const exclude = new Set(((a.exclude_columns as string[]) ?? []).map((x) => x.toLowerCase()));
  const only = a.columns ? new Set((a.columns as string[]).map((x) => x.toLowerCase())) : null;
  const keep = (n: string) => !exclude.has(n.toLowerCase()) && (!only || only.has(n.toLowerCase()));
  const want = expected.filter((f) => keep(f.name)).map((f) => `${f.name.toLowerCase()} ${canonicalType(f.type)}`);
  const have = table.columns.filter((f) => keep(f.name)).map((f) => `${f.name.toLowerCase()} ${canonicalType(f.type)}`);
  if (a.strict) return want.join(',') !== have.join(',');
  return want.some((w) => !have.includes(w));
}

const DATASET: Record<string, (a: Args, c: Ctx, check: DqCheck) => string> = {
  is_unique: (a, c) => {
    const k = cols(a, 'columns');
    const nulls = a.nulls_distinct === false ? '' : ` AND ${k.map((x) => `${x} IS NOT NULL`).join(' AND ')}`;
    const where = c.where || nulls ? ` WHERE TRUE${c.and}${nulls}` : '';
    return `SELECT coalesce(sum(_lw_n), 0) AS failures FROM (SELECT count(*) AS _lw_n FROM ${c.t}${where} GROUP BY ${k.join(', ')} HAVING count(*) > 1) AS _lw_d`;
  },
  is_aggr_not_greater_than: (a, c) => aggrCheck('is_aggr_not_greater_than', a, c),
  is_aggr_not_less_than: (a, c) => aggrCheck('is_aggr_not_less_than', a, c),
  is_aggr_equal: (a, c) => aggrCheck('is_aggr_equal', a, c),
  is_aggr_not_equal: (a, c) => aggrCheck('is_aggr_not_equal', a, c),
  foreign_key: (a, c) => {
    const present = cols(a, 'columns')
      .map((k) => `_lw_s.${k} IS NOT NULL`)
      .join(' AND ');
    const exists = `EXISTS (SELECT 1 FROM ${ref(a)} AS _lw_r WHERE ${keysMatch(a, '_lw_s', '_lw_r')})`;
    return `SELECT count(*) AS failures FROM ${c.t} AS _lw_s WHERE ${present}${c.and} AND ${a.negate ? '' : 'NOT '}${exists}`;
  },
  compare_datasets: (a, c) => {
    const keys = new Set((a.columns as string[]).map((x) => x.toLowerCase()));
    const exclude = new Set(((a.exclude_columns as string[]) ?? []).map((x) => x.toLowerCase()));
    const compared = c.table.columns
      .map((x) => x.name)
      .filter((n) => !keys.has(n.toLowerCase()) && !exclude.has(n.toLowerCase()));
    const same = [
      keysMatch(a, '_lw_s', '_lw_r'),
      ...compared.map((n) => `_lw_r.${ident(n)} <=> _lw_s.${ident(n)}`),
    ].join(' AND ');
    const differing = `(SELECT count(*) FROM ${c.t} AS _lw_s WHERE TRUE${c.and} AND NOT EXISTS (SELECT 1 FROM ${ref(a)} AS _lw_r WHERE ${same}))`;
    if (!a.check_missing_records) return `SELECT ${differing} AS failures`;
    const missing = `(SELECT count(*) FROM ${ref(a)} AS _lw_r WHERE NOT EXISTS (SELECT 1 FROM ${c.t} AS _lw_s WHERE ${keysMatch(a, '_lw_s', '_lw_r')}))`;
    return `SELECT ${differing} + ${missing} AS failures`;
  },
  sql_query: (a, c) => {
    const placeholder = String(a.input_placeholder ?? 'input_view').replace(/[^A-Za-z0-9_]/g, '');
    const query = String(a.query).replace(new RegExp(`\\{\\{\\s*${placeholder}\\s*\\}\\}`, 'g'), c.t);
    const cond = `${a.negate ? 'NOT ' : ''}coalesce(_lw_q.${ident(String(a.condition_column))}, FALSE)`;
    if (!Array.isArray(a.merge_columns)) {
      return `SELECT CASE WHEN EXISTS (SELECT 1 FROM (${query}) AS _lw_q WHERE ${cond}) THEN count(*) ELSE 0 END AS failures FROM ${c.t}${c.where}`;
    }
    const on = cols(a, 'merge_columns')
      .map((m) => `_lw_q.${m} <=> _lw_s.${m}`)
      .join(' AND ');
    return `SELECT count(*) AS failures FROM ${c.t} AS _lw_s WHERE EXISTS (SELECT 1 FROM (${query}) AS _lw_q WHERE ${on} AND ${cond})${c.and}`;
  },
  is_data_fresh_per_time_window: (a, c) => {
    const since = a.lookback_windows
      ? ` AND ${ident(String(a.column))} >= ${nowTs(a.curr_timestamp)} - INTERVAL ${Number(a.lookback_windows) * Number(a.window_minutes)} MINUTE`
      : '';
    return (
      `SELECT coalesce(sum(_lw_n), 0) AS failures FROM (SELECT ${windowOf(a)} AS _lw_w, count(*) AS _lw_n FROM ${c.t} ` +
      `WHERE ${ident(String(a.column))} IS NOT NULL${since}${c.and} GROUP BY 1) AS _lw_g WHERE _lw_n < ${num(Number(a.min_records_per_window))}`
    );
  },
  has_no_gaps_per_time_window: (a, c) => {
    const g = Array.isArray(a.group_by) ? cols(a, 'group_by') : [];
    const part = g.length ? `PARTITION BY ${g.join(', ')} ` : '';
    const sel = g.length ? `${g.join(', ')}, ` : '';
    const trailing = a.trailing_gap
      ? ` OR (_lw_next IS NULL AND floor(unix_timestamp(${nowTs(a.curr_timestamp)}) / ${num(Number(a.window_minutes) * 60)}) - _lw_w > 1)`
      : '';
    return (
      `SELECT coalesce(sum(_lw_n), 0) AS failures FROM (SELECT _lw_w, _lw_n, lag(_lw_w) OVER (${part}ORDER BY _lw_w) AS _lw_prev, ` +
      `lead(_lw_w) OVER (${part}ORDER BY _lw_w) AS _lw_next FROM (SELECT ${sel}${windowOf(a)} AS _lw_w, count(*) AS _lw_n FROM ${c.t} ` +
      `WHERE ${ident(String(a.column))} IS NOT NULL${c.and} GROUP BY ${sel}${windowOf(a)}) AS _lw_c) AS _lw_g ` +
      `WHERE (_lw_prev IS NOT NULL AND _lw_w - _lw_prev > 1)${trailing}`
    );
  },
  has_valid_schema: (a, c) =>
    schemaFails(a, c.table) ? `SELECT count(*) AS failures FROM ${c.t}` : `SELECT CAST(0 AS BIGINT) AS failures`,
  has_no_outliers: (a, c) => {
    const x = ident(String(a.column));
    return (
      `SELECT count(*) AS failures FROM ${c.t} CROSS JOIN (SELECT median(abs(${x} - _lw_med)) AS _lw_mad, max(_lw_med) AS _lw_m ` +
      `FROM ${c.t} CROSS JOIN (SELECT median(${x}) AS _lw_med FROM ${c.t}${c.where}) AS _lw_m0${c.where}) AS _lw_s ` +
      `WHERE abs(${x} - _lw_m) > 3 * _lw_mad${c.and}`
    );
  },
  has_no_aggr_outliers: (a, c) => {
    const unit = String(a.time_interval ?? 'day').toUpperCase();
    const g = Array.isArray(a.group_by) ? cols(a, 'group_by') : [];
    const sel = g.length ? `${g.join(', ')}, ` : '';
    const frame = `OVER (${g.length ? `PARTITION BY ${g.join(', ')} ` : ''}ORDER BY _lw_p ROWS BETWEEN ${Number(a.lookback_num_intervals ?? 30)} PRECEDING AND 1 PRECEDING)`;
    return (
      `SELECT coalesce(sum(_lw_n), 0) AS failures FROM (SELECT _lw_n, _lw_v, avg(_lw_v) ${frame} AS _lw_mu, stddev(_lw_v) ${frame} AS _lw_sd, ` +
      `count(_lw_v) ${frame} AS _lw_k FROM (SELECT ${sel}date_trunc(${lit(unit)}, ${ident(String(a.time_column))}) AS _lw_p, ` +
      `${aggr(a)} AS _lw_v, count(*) AS _lw_n FROM ${c.t}${c.where} GROUP BY ${sel}date_trunc(${lit(unit)}, ${ident(String(a.time_column))})) AS _lw_a) AS _lw_s ` +
      `WHERE _lw_k >= ${Number(a.warmup_num_intervals ?? 7)} AND _lw_sd > 0 AND abs(_lw_v - _lw_mu) > ${num(Number(a.sigma ?? 3))} * _lw_sd`
    );
  },
  aggr_matches_dataset: (a, c) => {
    const refCol = ident(String(a.ref_column ?? a.column));
    const where = a.row_filter ? ` WHERE ${String(a.row_filter)}` : '';
    const refWhere = a.ref_row_filter ? ` WHERE ${String(a.ref_row_filter)}` : '';
    const tol = `greatest(${num(Number(a.abs_tolerance ?? 0))}, ${num(Number(a.rel_tolerance ?? 0))} * abs(_lw_r.v))`;
    const mismatch = `NOT coalesce(abs(_lw_s.v - _lw_r.v) <= ${tol}, _lw_s.v IS NULL AND _lw_r.v IS NULL)`;
    if (!Array.isArray(a.group_by)) {
      return (
        `SELECT CASE WHEN ${mismatch} THEN _lw_s.n ELSE 0 END AS failures FROM (SELECT ${aggr(a)} AS v, count(*) AS n FROM ${c.t}${where}) AS _lw_s ` +
        `CROSS JOIN (SELECT ${aggr(a, refCol)} AS v FROM ${ref(a)}${refWhere}) AS _lw_r`
      );
    }
    const g = cols(a, 'group_by');
    const rg = Array.isArray(a.ref_group_by) ? cols(a, 'ref_group_by') : g;
    const on = g.map((x, i) => `_lw_s.g${i} <=> _lw_r.g${i}`).join(' AND ');
    return (
      `SELECT coalesce(sum(CASE WHEN ${mismatch} THEN _lw_s.n ELSE 0 END), 0) AS failures FROM ` +
      `(SELECT ${g.map((x, i) => `${x} AS g${i}`).join(', ')}, ${aggr(a)} AS v, count(*) AS n FROM ${c.t}${where} GROUP BY ${g.join(', ')}) AS _lw_s ` +
      `LEFT JOIN (SELECT ${rg.map((x, i) => `${x} AS g${i}`).join(', ')}, ${aggr(a, refCol)} AS v FROM ${ref(a)}${refWhere} GROUP BY ${rg.join(', ')}) AS _lw_r ON ${on}`
    );
  },
  are_polygons_mutually_disjoint: (a, c) => {
    const x = ident(String(a.column));
    return (
      `SELECT count(*) AS failures FROM ${c.t} AS _lw_a WHERE _lw_a.${x} IS NOT NULL${c.and} AND EXISTS (SELECT 1 FROM ${c.t} AS _lw_b ` +
      `WHERE _lw_b.${x} IS NOT NULL AND NOT (_lw_b.${x} <=> _lw_a.${x}) AND st_intersects(try_to_geometry(_lw_a.${x}), try_to_geometry(_lw_b.${x})) ` +
      `AND NOT st_touches(try_to_geometry(_lw_a.${x}), try_to_geometry(_lw_b.${x})))`
    );
  },
};

export const DATASET_NAMES = new Set(Object.keys(DATASET));

/** One query returning one row `{failures}`: how many of the table's rows fail the dataset-level check. */
export function datasetQuery(check: DqCheck, tableFqnSql: string, table: TableShape): string {
  const build = DATASET[check.check_function];
  if (!build) throw new Error(`${check.check_function} cannot be compiled (not a supported dataset-level check)`);
  const f = check.filter ? `(${check.filter})` : '';
  return build(
    check.arguments,
    { t: tableFqnSql, table, where: f ? ` WHERE ${f}` : '', and: f ? ` AND ${f}` : '' },
    check,
  );
}
