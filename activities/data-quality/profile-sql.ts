import type { ColumnProfile, HistogramBin } from './logic';
import { ident } from './logic/sql-text';

/**
 * Databricks SQL of a table profile (the local lakehouse runs the same text): one aggregate scan for every
 * column's counts, extremes, moments and lengths, then per column a top-values query and, for numbers, a
 * histogram query. Pure text builders and row readers; the activity runs them.
 */

export type ColumnKind = 'numeric' | 'string' | 'temporal' | 'boolean' | 'other';
export interface ProfiledColumn {
  name: string;
  type: string;
  kind: ColumnKind;
}

const NUMERIC = /^(tinyint|smallint|int|integer|bigint|long|short|byte|float|real|double|decimal|numeric|dec)\b/;

export function columnKind(type: string): ColumnKind {
  const t = type.trim().toLowerCase();
  if (NUMERIC.test(t)) return 'numeric';
  if (/^(string|varchar|char)\b/.test(t)) return 'string';
  if (/^(date|timestamp)/.test(t)) return 'temporal';
  if (t === 'boolean') return 'boolean';
  return 'other';
}

/** The relation profiled: a table, its first `limit` rows, or a read-only query the caller has checked. */
export function sourceSql(src: { table: string } | { query: string }, limit: number): string {
  const base = 'table' in src ? tableRefSql(src.table) : `(${src.query}) AS _lw_q`;
  return limit > 0 ? `(SELECT * FROM ${base} LIMIT ${Math.trunc(limit)}) AS _lw_src` : base;
}

function tableRefSql(fqn: string): string {
  return fqn.split('.').map(ident).join('.');
}

const a = (i: number, what: string) => `c${i}_${what}`;

/** One scan: row count, and per column non-null and distinct counts plus what its kind has (min/max, moments …). */
export function statsSql(source: string, columns: ProfiledColumn[]): string {
  const parts = ['COUNT(*) AS row_count'];
  columns.forEach((c, i) => {
    const col = ident(c.name);
    parts.push(`COUNT(${col}) AS ${a(i, 'nn')}`);
    const distinctOf = c.kind === 'other' ? `CAST(${col} AS STRING)` : col;
    parts.push(`COUNT(DISTINCT ${distinctOf}) AS ${a(i, 'd')}`);
    if (c.kind === 'numeric') {
      const d = `CAST(${col} AS DOUBLE)`;
      parts.push(`MIN(${d}) AS ${a(i, 'min')}`, `MAX(${d}) AS ${a(i, 'max')}`);
      parts.push(`AVG(${d}) AS ${a(i, 'mean')}`, `STDDEV_SAMP(${d}) AS ${a(i, 'sd')}`);
    } else if (c.kind === 'temporal') {
      parts.push(`CAST(MIN(${col}) AS STRING) AS ${a(i, 'min')}`, `CAST(MAX(${col}) AS STRING) AS ${a(i, 'max')}`);
    } else if (c.kind === 'string') {
      parts.push(`MIN(${col}) AS ${a(i, 'min')}`, `MAX(${col}) AS ${a(i, 'max')}`);
      parts.push(`MIN(LENGTH(${col})) AS ${a(i, 'minl')}`, `MAX(LENGTH(${col})) AS ${a(i, 'maxl')}`);
      parts.push(`AVG(CAST(LENGTH(${col}) AS DOUBLE)) AS ${a(i, 'avgl')}`);
      parts.push(`COUNT(CASE WHEN TRIM(${col}) = '' THEN 1 END) AS ${a(i, 'empty')}`);
    }
  });
  return `SELECT ${parts.join(', ')} FROM ${source}`;
}

const toNum = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const round = (v: number | null, digits = 6) => (v === null ? null : Number(v.toFixed(digits)));

/** The column profiles (without top values and histogram) from the stats row. */
export function readStats(row: Record<string, unknown>, columns: ProfiledColumn[]): ColumnProfile[] {
  const count = Number(row.row_count ?? 0);
  return columns.map((c, i) => {
    const get = (what: string) => row[a(i, what)];
    const nonNull = Number(get('nn') ?? 0);
    const minMax = (v: unknown) =>
      v === null || v === undefined ? null : c.kind === 'numeric' ? Number(v) : String(v);
    return {
      name: c.name,
      type: c.type,
      count,
      nulls: count - nonNull,
      distinct: Number(get('d') ?? 0),
      min: minMax(get('min')),
      max: minMax(get('max')),
      mean: round(toNum(get('mean'))),
      stddev: round(toNum(get('sd'))),
      min_length: toNum(get('minl')),
      max_length: toNum(get('maxl')),
      avg_length: round(toNum(get('avgl')), 4),
      empty: Number(get('empty') ?? 0),
      histogram: { bins: [] },
      top_values: [],
    };
  });
}

/** The `n` most frequent non-null values, most frequent first (ties by value). */
export function topValuesSql(source: string, column: ProfiledColumn, n: number): string | null {
  if (column.kind === 'other') return null;
  const col = ident(column.name);
  const value = column.kind === 'temporal' ? `CAST(${col} AS STRING)` : col;
  return (
    `SELECT ${value} AS value, COUNT(*) AS freq FROM ${source} WHERE ${col} IS NOT NULL ` +
    `GROUP BY ${value} ORDER BY freq DESC, value LIMIT ${Math.trunc(n)}`
  );
}

export function readTopValues(rows: Record<string, unknown>[]): ColumnProfile['top_values'] {
  return rows.map((r) => ({ value: typeof r.value === 'bigint' ? Number(r.value) : r.value, count: Number(r.freq) }));
}

/** Counts per bucket of `bins` equal-width buckets over [min, max]; the max falls in the last bucket. */
export function histogramSql(source: string, column: ProfiledColumn, min: number, max: number, bins: number): string {
  const col = `CAST(${ident(column.name)} AS DOUBLE)`;
  const width = (max - min) / bins;
  const bucket = `LEAST(CAST(FLOOR((${col} - (${min})) / ${width}) AS INT), ${bins - 1})`;
  return (
    `SELECT ${bucket} AS bucket, COUNT(*) AS freq FROM ${source} ` +
    `WHERE ${ident(column.name)} IS NOT NULL GROUP BY ${bucket}`
  );
}

/** Every bucket (empty ones included) with its range. */
export function readHistogram(rows: Record<string, unknown>[], min: number, max: number, bins: number): HistogramBin[] {
  const counts = new Map(rows.map((r) => [Number(r.bucket), Number(r.freq)]));
  const width = (max - min) / bins;
  return Array.from({ length: bins }, (_, i) => ({
    range_min: round(min + i * width) as number,
    range_max: round(i === bins - 1 ? max : min + (i + 1) * width) as number,
    count: counts.get(i) ?? 0,
  }));
}
