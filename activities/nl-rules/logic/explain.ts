import { lit } from '../../data-quality/logic/sql-text';
import type { DqxCheck } from './parse';

/** A DQX check as one sentence of the grammar `parseRule` reads, so explain → parse gives the check back. Pure. */

const RESERVED = new Set(['the', 'table', 'at', 'no', 'and', 'when', 'where', 'if', 'for']);
const col = (c: unknown) => {
  const s = String(c);
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !RESERVED.has(s.toLowerCase()) ? s : '`' + s.replace(/`/g, '``') + '`';
};
const val = (v: unknown) => (typeof v === 'number' ? String(v) : lit(String(v)));

function age(minutes: number): string {
  if (minutes % 1440 === 0) return `${minutes / 1440} days`;
  if (minutes % 60 === 0) return `${minutes / 60} hours`;
  return `${minutes} minutes`;
}

function filterText(filter: string | undefined): string | null {
  if (!filter) return '';
  const m = /^`((?:[^`]|``)+)` = (.+)$/.exec(filter);
  if (!m) return null;
  const raw = m[2];
  const value = /^-?\d+(\.\d+)?$/.test(raw) ? raw : raw;
  return ` when ${col(m[1].replace(/``/g, '`'))} is ${value}`;
}

export function explainCheck(c: DqxCheck): string | null {
  const a = c.check.arguments;
  let s: string | null;
  switch (c.check.function) {
    case 'is_not_null':
      s = `${col(a.column)} must not be null`;
      break;
    case 'is_unique':
      s = Array.isArray(a.columns) && a.columns.length === 1 ? `${col(a.columns[0])} must be unique` : null;
      break;
    case 'is_in_range':
      s = `${col(a.column)} must be between ${String(a.min_limit)} and ${String(a.max_limit)}`;
      break;
    case 'is_not_less_than':
      s = `${col(a.column)} must be at least ${String(a.limit)}`;
      break;
    case 'is_not_greater_than':
      s = `${col(a.column)} must be at most ${String(a.limit)}`;
      break;
    case 'is_in_list':
      s = Array.isArray(a.allowed) ? `${col(a.column)} must be one of ${a.allowed.map(val).join(', ')}` : null;
      break;
    case 'is_valid_email':
      s = `${col(a.column)} must be a valid email`;
      break;
    case 'regex_match':
      s = a.negate ? null : `${col(a.column)} must match regex ${lit(String(a.regex))}`;
      break;
    case 'is_data_fresh':
      s = `${col(a.column)} must be updated within ${age(Number(a.max_age_minutes))}`;
      break;
    case 'is_aggr_not_less_than':
      s =
        a.column === '*' && (a.aggr_type ?? 'count') === 'count' && !a.group_by
          ? `the table must have at least ${String(a.limit)} rows`
          : null;
      break;
    default:
      s = null;
  }
  const f = filterText(c.filter);
  return s === null || f === null ? null : s + f;
}
