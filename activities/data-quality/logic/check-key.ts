import { findCheckFunction } from './catalog';
import type { DqCheck } from './types';

/** Arguments whose lists are sets: the same values in another order are the same check. */
const SET_ARGS = new Set(['allowed', 'forbidden', 'keys', 'entities', 'exclude_columns']);
const SET_ARGS_BY_FUNCTION: Record<string, string[]> = { is_unique: ['columns'] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => [k, canonical(value[k])]),
  );
}

const bySortKey = (a: unknown, b: unknown) => {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * What makes two checks the same check: table, function, arguments (key order, set-list order and column-name case
 * ignored) and filter. Name, criticality and enabled are not part of it, so re-generating never adds a check the user
 * renamed or downgraded to warn.
 */
export function checkKey(check: Pick<DqCheck, 'table_fqn' | 'check_function' | 'arguments' | 'filter'>): string {
  const fn = findCheckFunction(check.check_function);
  const columnArgs = new Set(fn?.args.filter((a) => a.type === 'column' || a.type === 'columns').map((a) => a.name));
  const sets = [...SET_ARGS, ...(SET_ARGS_BY_FUNCTION[check.check_function] ?? [])];
  const args: Record<string, unknown> = {};
  for (const [k, raw] of Object.entries(check.arguments ?? {})) {
    if (raw === undefined || raw === null) continue;
    let v = canonical(raw);
    if (columnArgs.has(k)) v = Array.isArray(v) ? v.map((c) => String(c).toLowerCase()) : String(v).toLowerCase();
    if (sets.includes(k) && Array.isArray(v)) v = [...v].sort(bySortKey);
    args[k] = v;
  }
  return JSON.stringify([
    check.table_fqn.trim().toLowerCase(),
    check.check_function,
    canonical(args),
    (check.filter ?? '').trim(),
  ]);
}

/** The generated checks that are not already among the existing ones (nor repeated within the generated list). */
export function dedupeChecks(existing: DqCheck[], generated: DqCheck[]): DqCheck[] {
  const seen = new Set(existing.map(checkKey));
  const out: DqCheck[] = [];
  for (const check of generated) {
    const key = checkKey(check);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(check);
  }
  return out;
}
