import { lit } from '../../data-quality/logic/sql-text';

/** The built-in MDM reports (the specification's ten) and the rules custom report SQL follows. */

export interface ReportViz {
  type: 'bar' | 'line' | 'point' | 'area' | 'arc';
  x: string;
  y: string;
}

export interface BuiltinReport {
  name: string;
  title: string;
  description: string;
  /** Where the rows come from: the service's store, or the entity types' Delta tables in `<mdm.catalog>.mdm`. */
  source: 'store' | 'lakehouse';
  viz: ReportViz;
}

export const BUILTIN_REPORTS: BuiltinReport[] = [
  {
    name: 'consolidation_summary',
    title: 'Consolidation summary',
    description: 'Golden records and the source records they hold, per entity type and status',
    source: 'lakehouse',
    viz: { type: 'bar', x: 'status', y: 'golden_records' },
  },
  {
    name: 'match_rule_effectiveness',
    title: 'Match-rule effectiveness',
    description: 'Pairs each blocking rule built, how many linked (≥ 75) or went to review (50–74), average score',
    source: 'lakehouse',
    viz: { type: 'bar', x: 'rule', y: 'linked' },
  },
  {
    name: 'steward_productivity',
    title: 'Steward productivity',
    description: 'Cases each steward resolved in the period, by action, with the average hours open',
    source: 'store',
    viz: { type: 'bar', x: 'steward', y: 'resolved' },
  },
  {
    name: 'quality_scorecard',
    title: 'Quality scorecard',
    description: 'Completeness of each attribute over live golden records',
    source: 'lakehouse',
    viz: { type: 'bar', x: 'attribute', y: 'completeness_pct' },
  },
  {
    name: 'source_data_quality',
    title: 'Source data quality',
    description: 'Per source system: records, deleted records and average attribute completeness',
    source: 'lakehouse',
    viz: { type: 'bar', x: 'system', y: 'completeness_pct' },
  },
  {
    name: 'stewardship_backlog',
    title: 'Stewardship backlog',
    description: 'Open cases per type and SLA state',
    source: 'store',
    viz: { type: 'bar', x: 'type', y: 'open_cases' },
  },
  {
    name: 'consent_posture',
    title: 'Consent posture',
    description: 'Golden records granting, refusing or missing each consent attribute (names with consent or opt_in)',
    source: 'lakehouse',
    viz: { type: 'bar', x: 'attribute', y: 'granted' },
  },
  {
    name: 'hierarchy_coverage',
    title: 'Hierarchy coverage',
    description: 'Reference-data codes that have a parent, per domain',
    source: 'store',
    viz: { type: 'bar', x: 'domain', y: 'coverage_pct' },
  },
  {
    name: 'audit_summary',
    title: 'Audit summary',
    description: 'MDM audit events in the period, per action',
    source: 'store',
    viz: { type: 'bar', x: 'action', y: 'events' },
  },
  {
    name: 'negative_match_growth',
    title: 'Negative-match growth',
    description: 'Negative-match rules created per day and in total',
    source: 'store',
    viz: { type: 'line', x: 'day', y: 'total_rules' },
  },
];

export const builtinReport = (name: string) => BUILTIN_REPORTS.find((r) => r.name === name);

/**
 * Custom SQL must be one read-only query: a single statement (no `;` but a trailing one, outside quotes and
 * comments) that starts with SELECT or WITH. Answers the statement without the trailing `;`, or the problem.
 */
export function checkSingleSelect(sqlText: string): { sql: string } | { problem: string } {
  let out = '';
  let i = 0;
  let ended = false;
  while (i < sqlText.length) {
    const ch = sqlText[i];
    if (ch === "'" || ch === '"' || ch === '`') {
      const end = sqlText.indexOf(ch, i + 1);
      if (end < 0) return { problem: `an unterminated ${ch} quote` };
      if (ended) return { problem: 'more than one statement' };
      out += sqlText.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (ch === '-' && sqlText[i + 1] === '-') {
      const end = sqlText.indexOf('\n', i);
      i = end < 0 ? sqlText.length : end + 1;
      out += ' ';
      continue;
    }
    if (ch === '/' && sqlText[i + 1] === '*') {
      const end = sqlText.indexOf('*/', i + 2);
      if (end < 0) return { problem: 'an unterminated comment' };
      i = end + 2;
      out += ' ';
      continue;
    }
    if (ch === ';') {
      ended = true;
      i++;
      continue;
    }
    if (ended && !/\s/.test(ch)) return { problem: 'more than one statement (a ; inside the query)' };
    out += ch;
    i++;
  }
  const trimmed = out.trim();
  if (!/^(select|with)\b/i.test(trimmed)) return { problem: 'must be one SELECT (or WITH … SELECT) statement' };
  if (
    /\b(insert|update|delete|merge|drop|create|alter|truncate|grant|revoke|copy|call|attach|pragma|set)\b/i.test(
      trimmed.replace(/'[^']*'/g, "''"),
    )
  )
    return { problem: 'must only read: a write or DDL keyword is present' };
  return { sql: trimmed };
}

export type ParamType = 'string' | 'number' | 'integer' | 'date' | 'boolean';

/** One parameter as a SQL literal of its type, or the problem with the value. */
export function bindValue(type: ParamType, value: unknown): { sql: string } | { problem: string } {
  switch (type) {
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) && String(value).trim() !== '' ? { sql: String(n) } : { problem: 'must be a number' };
    }
    case 'integer': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isSafeInteger(n) ? { sql: String(n) } : { problem: 'must be an integer' };
    }
    case 'date': {
      const s = String(value);
      return /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s))
        ? { sql: `CAST(${lit(s)} AS DATE)` }
        : { problem: 'must be a yyyy-MM-dd date' };
    }
    case 'boolean':
      if (value === true || value === 'true') return { sql: 'TRUE' };
      if (value === false || value === 'false') return { sql: 'FALSE' };
      return { problem: 'must be true or false' };
    case 'string':
      return { sql: lit(String(value)) };
  }
}

/**
 * Replaces each `{param}` with its value bound by type (defaults where not given). Unknown placeholders, missing
 * values and values of the wrong type come back as problems keyed by parameter.
 */
export function bindParameters(
  sqlText: string,
  params: Record<string, { type: ParamType; default?: unknown }>,
  values: Record<string, unknown>,
): { sql: string; values: Record<string, unknown> } | { problems: { name: string; message: string }[] } {
  const problems: { name: string; message: string }[] = [];
  const used: Record<string, unknown> = {};
  for (const name of Object.keys(values))
    if (!(name in params)) problems.push({ name, message: 'not a parameter of this report' });
  const sql = sqlText.replace(/\{([a-z][a-z0-9_]*)\}/g, (whole, name: string) => {
    const p = params[name];
    if (!p) {
      problems.push({ name, message: `{${name}} has no parameter definition` });
      return whole;
    }
    const v = values[name] ?? p.default;
    if (v === undefined) {
      problems.push({ name, message: 'has no value and no default' });
      return whole;
    }
    const bound = bindValue(p.type, v);
    if ('problem' in bound) {
      problems.push({ name, message: bound.problem });
      return whole;
    }
    used[name] = v;
    return bound.sql;
  });
  return problems.length ? { problems } : { sql, values: used };
}
