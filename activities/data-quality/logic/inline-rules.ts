import { findCheckFunction } from './catalog';
import { rowFailure } from './compile-row';
import { normalizeCheck } from './normalize';
import { ident, tableSql } from './sql-text';
import type { CheckIssue, DqCheck, TableShape } from './types';

/**
 * Inline rules (Clone-Xs's `/data-quality/dqx/rules`): a check_type with a column and params, a severity and an
 * action for clones (log, block, quarantine). Each compiles to a DQX check of the engine; quarantine also needs
 * the rule as a per-row predicate (which rows to move), written here from the same check.
 */

export const INLINE_CHECK_TYPES = ['not_null', 'unique', 'range', 'regex', 'referential', 'expression'] as const;
export const INLINE_SEVERITIES = ['info', 'warning', 'critical'] as const;
export const INLINE_ACTIONS = ['log', 'block', 'quarantine'] as const;
export type InlineCheckType = (typeof INLINE_CHECK_TYPES)[number];
export type InlineAction = (typeof INLINE_ACTIONS)[number];

export interface InlineRule {
  id?: string;
  name: string;
  table_fqn: string;
  check_type: InlineCheckType;
  column?: string | null;
  params: Record<string, unknown>;
  severity: (typeof INLINE_SEVERITIES)[number];
  action: InlineAction;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The DQX function and arguments of a rule (before validation). */
function dqxOf(rule: InlineRule): { check_function: string; arguments: Record<string, unknown> } | CheckIssue {
  const column = rule.column ?? undefined;
  const p = rule.params ?? {};
  const needColumn = rule.check_type !== 'expression';
  if (needColumn && !column) return { path: 'column', message: `${rule.check_type} needs a column`, status: 422 };
  switch (rule.check_type) {
    case 'not_null':
      return { check_function: 'is_not_null', arguments: { column } };
    case 'unique':
      return { check_function: 'is_unique', arguments: { columns: [column] } };
    case 'range': {
      const min = p.min ?? p.min_value;
      const max = p.max ?? p.max_value;
      if (min === undefined && max === undefined)
        return { path: 'params.min', message: 'range needs params.min, params.max or both', status: 422 };
      if (min !== undefined && max !== undefined)
        return { check_function: 'is_in_range', arguments: { column, min_limit: min, max_limit: max } };
      return min !== undefined
        ? { check_function: 'is_not_less_than', arguments: { column, limit: min } }
        : { check_function: 'is_not_greater_than', arguments: { column, limit: max } };
    }
    case 'regex': {
      const pattern = str(p.pattern) ?? str(p.regex);
      if (!pattern) return { path: 'params.pattern', message: 'regex needs params.pattern', status: 422 };
      return { check_function: 'regex_match', arguments: { column, regex: pattern } };
    }
    case 'referential': {
      const ref = str(p.ref_table) ?? str(p.parent_table);
      if (!ref) return { path: 'params.ref_table', message: 'referential needs params.ref_table', status: 422 };
      const refColumn = str(p.ref_column) ?? str(p.parent_column) ?? column;
      return {
        check_function: 'foreign_key',
        arguments: { columns: [column], ref_table: ref, ref_columns: [refColumn] },
      };
    }
    case 'expression': {
      const expression = str(p.expression);
      if (!expression) return { path: 'params.expression', message: 'expression needs params.expression', status: 422 };
      return { check_function: 'sql_expression', arguments: { expression } };
    }
  }
}

/**
 * The rule as one engine check (validated against the table when its shape is given). Critical rules are
 * error-level, info and warning rules warn-level. Issues name the rule's own fields (column, params.*).
 */
export function inlineRuleCheck(
  rule: InlineRule,
  table?: TableShape,
): { ok: true; check: DqCheck } | { ok: false; issues: CheckIssue[] } {
  const mapped = dqxOf(rule);
  if ('path' in mapped) return { ok: false, issues: [mapped] };
  const r = normalizeCheck(
    {
      ...(rule.id ? { id: rule.id } : {}),
      table_fqn: rule.table_fqn,
      name: rule.name,
      check_function: mapped.check_function,
      arguments: mapped.arguments,
      criticality: rule.severity === 'critical' ? 'error' : 'warn',
    },
    table,
  );
  if (!r.ok) return { ok: false, issues: r.issues.map((i) => ({ ...i, path: ruleFieldOf(rule, i.path) })) };
  return { ok: true, check: r.check[0] };
}

/** An engine argument path as the rule field the caller wrote. */
function ruleFieldOf(rule: InlineRule, path: string): string {
  if (/^arguments\.(column|columns)$/.test(path)) return 'column';
  if (path === 'arguments.ref_table') return 'params.ref_table';
  if (path === 'arguments.ref_columns') return 'params.ref_column';
  if (path === 'arguments.regex') return 'params.pattern';
  if (path === 'arguments.expression') return 'params.expression';
  if (/^arguments\.(min_limit|limit)$/.test(path))
    return rule.params?.max !== undefined && path === 'arguments.limit' ? 'params.max' : 'params.min';
  if (path === 'arguments.max_limit') return 'params.max';
  return path;
}

/**
 * Rows violating the rule, as a predicate over the checked table `relation` (unqualified columns): the engine's row
 * condition for row-level checks; for unique a duplicate key; for referential a key missing from the parent.
 */
export function violationPredicate(check: DqCheck, table: TableShape, relation: string): string {
  const fn = findCheckFunction(check.check_function);
  if (fn?.level === 'row') return `coalesce((${rowFailure(check, table)}), FALSE)`;
  const a = check.arguments;
  if (check.check_function === 'is_unique') {
    const c = ident(String((a.columns as string[])[0]));
    return `(${c} IS NOT NULL AND ${c} IN (SELECT ${c} FROM ${relation} WHERE ${c} IS NOT NULL GROUP BY ${c} HAVING count(*) > 1))`;
  }
  if (check.check_function === 'foreign_key') {
    const c = ident(String((a.columns as string[])[0]));
    const rc = ident(String((a.ref_columns as string[])[0]));
    const ref = tableSql(String(a.ref_table));
    return `(${c} IS NOT NULL AND ${c} NOT IN (SELECT ${rc} FROM ${ref} WHERE ${rc} IS NOT NULL))`;
  }
  throw new Error(`${check.check_function} has no row predicate`);
}
