import { checkUserSql } from './sql-guard';
import { ident, tableSql } from './sql-text';

/**
 * Cross-table checks (POST /api/governance/dq/cross-table-check): the SQL of the four check types, validated and
 * quoted here (tables must be catalog.schema.table, columns plain names, expressions one read-only expression).
 * At most MAX_DETAILS mismatching groups or orphan keys are read back.
 */

export const CROSS_TABLE_TYPES = ['aggregate_match', 'referential_integrity', 'row_count_match', 'custom_sql'] as const;
export type CrossTableType = (typeof CROSS_TABLE_TYPES)[number];
export const MAX_DETAILS = 10;

export interface CrossTablePlan {
  type: CrossTableType;
  /** Named queries, run in order; each returns rows read by the activity. */
  queries: Record<string, string>;
  /** Parameters kept for the details (tolerance, expressions). */
  params: Record<string, unknown>;
}

export class CrossTableParamError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const table = (p: Record<string, unknown>, key: string): string => {
  const v = p[key];
  const sql = typeof v === 'string' ? tableSql(v) : null;
  if (!sql) throw new CrossTableParamError(`params.${key}`, `${key} must be catalog.schema.table`);
  return sql;
};
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const column = (p: Record<string, unknown>, key: string, fallback?: unknown): string => {
  const v = p[key] ?? fallback;
  if (typeof v !== 'string' || !NAME.test(v))
    throw new CrossTableParamError(`params.${key}`, `${key} must be a column name`);
  return ident(v);
};
const expression = (p: Record<string, unknown>, key: string, fallback?: unknown): string => {
  const v = p[key] ?? fallback;
  if (typeof v !== 'string' || v.trim() === '') throw new CrossTableParamError(`params.${key}`, `${key} is required`);
  const problem = checkUserSql(v, 'expression');
  if (problem) throw new CrossTableParamError(`params.${key}`, `${key} ${problem}`);
  return v;
};

export function planCrossTableCheck(type: CrossTableType, params: Record<string, unknown>): CrossTablePlan {
  const p = params ?? {};
  switch (type) {
    case 'aggregate_match': {
      const s = table(p, 'source_table');
      const d = table(p, 'dest_table');
      const se = expression(p, 'source_expr');
      const de = expression(p, 'dest_expr', p.source_expr);
      const groupBy =
        p.group_by === undefined || p.group_by === null ? [] : Array.isArray(p.group_by) ? p.group_by : [p.group_by];
      if (groupBy.length === 0)
        return {
          type,
          queries: {
            values: `SELECT (SELECT ${se} FROM ${s}) AS source_value, (SELECT ${de} FROM ${d}) AS dest_value`,
          },
          params: { source_expr: se, dest_expr: de },
        };
      const keys = groupBy.map((g, i) => column({ [`group_by[${i}]`]: g }, `group_by[${i}]`));
      const aliases = keys.map((_, i) => `_lw_k${i}`);
      const side = (t: string, e: string) =>
        `SELECT ${keys.map((k, i) => `${k} AS ${aliases[i]}`).join(', ')}, ${e} AS _lw_v FROM ${t} GROUP BY ${keys.join(', ')}`;
      const on = aliases.map((a) => `_lw_s.${a} <=> _lw_d.${a}`).join(' AND ');
      const joined = `(${side(s, se)}) AS _lw_s FULL OUTER JOIN (${side(d, de)}) AS _lw_d ON ${on}`;
      const mismatch = `NOT (_lw_s._lw_v <=> _lw_d._lw_v)`;
      const keyOut = aliases
        .map((a, i) => `coalesce(_lw_s.${a}, _lw_d.${a}) AS ${ident(String(groupBy[i]))}`)
        .join(', ');
      return {
        type,
        queries: {
          counts: `SELECT count(*) AS total_groups, count_if(${mismatch}) AS mismatched_groups FROM ${joined}`,
          mismatches:
            `SELECT ${keyOut}, _lw_s._lw_v AS source_value, _lw_d._lw_v AS dest_value FROM ${joined} WHERE ${mismatch} ` +
            `ORDER BY ${aliases.map((_, i) => String(i + 1)).join(', ')} LIMIT ${MAX_DETAILS}`,
        },
        params: { source_expr: se, dest_expr: de, group_by: groupBy },
      };
    }
    case 'referential_integrity': {
      const child = table(p, 'child_table');
      const parent = table(p, 'parent_table');
      const c = column(p, 'child_column');
      const pc = column(p, 'parent_column', p.child_column);
      const orphans = `FROM ${child} WHERE ${c} IS NOT NULL AND ${c} NOT IN (SELECT ${pc} FROM ${parent} WHERE ${pc} IS NOT NULL)`;
      return {
        type,
        queries: {
          counts: `SELECT (SELECT count(*) FROM ${child} WHERE ${c} IS NOT NULL) AS checked_rows, count(*) AS orphan_rows, count(DISTINCT ${c}) AS orphan_keys ${orphans}`,
          orphans: `SELECT DISTINCT ${c} AS orphan_key ${orphans} ORDER BY 1 LIMIT ${MAX_DETAILS}`,
        },
        params: {},
      };
    }
    case 'row_count_match': {
      const s = table(p, 'source_table');
      const d = table(p, 'dest_table');
      const tol = p.tolerance_pct ?? 0;
      if (typeof tol !== 'number' || !(tol >= 0) || tol > 100)
        throw new CrossTableParamError('params.tolerance_pct', 'tolerance_pct must be a number from 0 to 100');
      return {
        type,
        queries: {
          counts: `SELECT (SELECT count(*) FROM ${s}) AS source_count, (SELECT count(*) FROM ${d}) AS dest_count`,
        },
        params: { tolerance_pct: tol },
      };
    }
    case 'custom_sql': {
      const sql = p.sql;
      if (typeof sql !== 'string' || sql.trim() === '') throw new CrossTableParamError('params.sql', 'sql is required');
      const problem = checkUserSql(sql, 'query');
      if (problem) throw new CrossTableParamError('params.sql', `sql ${problem}`);
      return { type, queries: { result: sql }, params: {} };
    }
  }
}

const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const plain = (v: unknown): unknown => (typeof v === 'bigint' ? Number(v) : v);
const row = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plain(v)]));

/** passed and details from the query results (keyed as in plan.queries). */
export function judgeCrossTableCheck(
  plan: CrossTablePlan,
  results: Record<string, Record<string, unknown>[]>,
): { passed: boolean; details: Record<string, unknown> } {
  switch (plan.type) {
    case 'aggregate_match': {
      if (results.values) {
        const r = results.values[0] ?? {};
        const sv = plain(r.source_value);
        const dv = plain(r.dest_value);
        const same = typeof sv === 'number' && typeof dv === 'number' ? sv === dv : String(sv) === String(dv);
        return { passed: same, details: { source_value: sv, dest_value: dv } };
      }
      const c = results.counts[0] ?? {};
      const mismatched = n(c.mismatched_groups);
      return {
        passed: mismatched === 0,
        details: {
          total_groups: n(c.total_groups),
          mismatched_groups: mismatched,
          mismatches: results.mismatches.map(row),
        },
      };
    }
    case 'referential_integrity': {
      const c = results.counts[0] ?? {};
      const orphanRows = n(c.orphan_rows);
      return {
        passed: orphanRows === 0,
        details: {
          checked_rows: n(c.checked_rows),
          orphan_rows: orphanRows,
          orphan_keys: n(c.orphan_keys),
          orphans: results.orphans.map((r) => plain(r.orphan_key)),
        },
      };
    }
    case 'row_count_match': {
      const c = results.counts[0] ?? {};
      const src = n(c.source_count);
      const dst = n(c.dest_count);
      const diff = Math.round((Math.abs(src - dst) / Math.max(src, 1)) * 100 * 100) / 100;
      const tol = Number(plan.params.tolerance_pct);
      return {
        passed: diff <= tol,
        details: { source_count: src, dest_count: dst, diff_pct: diff, tolerance_pct: tol },
      };
    }
    case 'custom_sql': {
      const r = results.result[0];
      if (!r) return { passed: false, details: { message: 'the query returned no row' } };
      const key = Object.keys(r).find((k) => k.toLowerCase() === 'passed');
      const msgKey = Object.keys(r).find((k) => k.toLowerCase() === 'message');
      if (!key) return { passed: false, details: { message: 'the query returned no passed column', row: row(r) } };
      const v = r[key];
      return {
        passed: v === true || v === 1 || v === 'true',
        details: { message: msgKey ? plain(r[msgKey]) : null },
      };
    }
  }
}
