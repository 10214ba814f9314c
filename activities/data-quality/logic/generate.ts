import { normalizeCheck } from './normalize';
import type { ColumnProfile, Criticality, DqCheck, Profile } from './types';

/** DQX's profiler/generator defaults (max_in_count 10, distinct_ratio 0.05, trim_strings true). */
export interface GenerateOptions {
  criticality?: Criticality;
  /** is_in_list only when the column has at most this many distinct values. */
  maxInCount?: number;
  /** …and at most this share of its non-null rows are distinct values. */
  distinctRatio?: number;
  /** is_not_null when at most this share of rows is null (0: none seen). */
  maxNullRatio?: number;
  /** not-empty checks when at most this share of rows is an empty string (0: none seen). */
  maxEmptyRatio?: number;
}

const DEFAULTS: Required<Omit<GenerateOptions, 'criticality'>> = {
  maxInCount: 10,
  distinctRatio: 0.05,
  maxNullRatio: 0,
  maxEmptyRatio: 0,
};

type Kind = 'string' | 'integral' | 'continuous' | 'temporal' | 'boolean' | 'other';

/** Spark, Databricks and DuckDB type names by what the generator can say about them. */
export function typeKind(type: string): Kind {
  const t = type.trim().toLowerCase();
  if (/^(string|varchar|char|text|nvarchar|bpchar)\b/.test(t)) return 'string';
  if (/^(tinyint|smallint|int|integer|bigint|long|short|byte|hugeint|u?(tiny|small|big)?int|int\d+)$/.test(t)) {
    return 'integral';
  }
  if (/^(decimal|numeric)\s*\(\s*\d+\s*,\s*0\s*\)$/.test(t)) return 'integral';
  if (/^(float|double|real|decimal|numeric|float\d+)\b/.test(t)) return 'continuous';
  if (/^(date|timestamp)/.test(t)) return 'temporal';
  if (/^(boolean|bool)$/.test(t)) return 'boolean';
  return 'other';
}

type Rule = [fn: string, args: Record<string, unknown>];

function numberLimit(v: number | string | null): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(v.trim())) return Number(v);
  return null;
}

function rangeRule(c: ColumnProfile, kind: Kind): Rule | null {
  const limit = (v: number | string | null) =>
    kind === 'temporal' ? (typeof v === 'string' && v.trim() !== '' ? v : null) : numberLimit(v);
  const lo = limit(c.min);
  const hi = limit(c.max);
  if (lo !== null && hi !== null) return ['is_in_range', { column: c.name, min_limit: lo, max_limit: hi }];
  if (lo !== null) return ['is_not_less_than', { column: c.name, limit: lo }];
  if (hi !== null) return ['is_not_greater_than', { column: c.name, limit: hi }];
  return null;
}

const scalarOrder = (a: string | number, b: string | number) =>
  typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;

/** The allowed values, when the profile saw every distinct value and there are few enough of them. */
function listRule(c: ColumnProfile, kind: Kind, o: typeof DEFAULTS): Rule | null {
  if (kind !== 'string' && kind !== 'integral') return null;
  const nonNull = c.count - c.nulls;
  if (c.distinct < 1 || c.distinct > o.maxInCount || nonNull <= 0 || c.distinct / nonNull > o.distinctRatio) {
    return null;
  }
  const values = c.top_values
    .map((t) => t.value)
    .filter((v): v is string | number => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)));
  const unique = [...new Set(values)];
  if (unique.length < c.distinct) return null;
  return ['is_in_list', { column: c.name, allowed: unique.sort(scalarOrder) }];
}

/** DQX's generator rules for one column, in a fixed order. */
function columnRules(c: ColumnProfile, o: typeof DEFAULTS): Rule[] {
  const kind = typeKind(c.type);
  const rules: Rule[] = [];
  if (c.count <= 0) return rules;
  const nonNull = c.nulls / c.count <= o.maxNullRatio;
  const emptyCount = c.empty ?? (c.min_length !== null && c.min_length > 0 ? 0 : null);
  const nonEmpty = kind === 'string' && emptyCount !== null && emptyCount / c.count <= o.maxEmptyRatio;
  if (nonNull && nonEmpty) rules.push(['is_not_null_and_not_empty', { column: c.name, trim_strings: true }]);
  else if (nonNull) rules.push(['is_not_null', { column: c.name }]);
  else if (nonEmpty) rules.push(['is_not_empty', { column: c.name, trim_strings: true }]);
  const list = listRule(c, kind, o);
  if (list) rules.push(list);
  else if (kind === 'integral' || kind === 'continuous' || kind === 'temporal') {
    const range = rangeRule(c, kind);
    if (range) rules.push(range);
  }
  const uniqueKind = kind === 'string' || kind === 'integral' || kind === 'temporal';
  if (uniqueKind && c.count > 1 && c.nulls === 0 && c.distinct === c.count) {
    rules.push(['is_unique', { columns: [c.name] }]);
  }
  return rules;
}

/**
 * Checks a profile suggests, by DQX's generator rules: is_not_null (no nulls seen), is_not_null_and_not_empty /
 * is_not_empty for strings, is_in_list for low cardinality, is_in_range (or one-sided limits) from min/max, is_unique
 * where every row is distinct. Names are `<function>_<column>`; the same profile always gives the same checks.
 * Throws when table_fqn is not catalog.schema.table.
 */
export function generateChecks(profile: Profile, table_fqn: string, opts: GenerateOptions = {}): DqCheck[] {
  const o = { ...DEFAULTS, ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)) };
  const table = { columns: profile.columns.map((c) => ({ name: c.name, type: c.type })) };
  const out: DqCheck[] = [];
  for (const column of profile.columns) {
    for (const [fn, args] of columnRules(column, o)) {
      const input = { table_fqn, check_function: fn, arguments: args, criticality: opts.criticality ?? 'error' };
      const r = normalizeCheck(input, table);
      if (!r.ok) throw new Error(`cannot generate ${fn} on ${column.name}: ${r.issues[0].path} ${r.issues[0].message}`);
      out.push(...r.check);
    }
  }
  return out;
}
