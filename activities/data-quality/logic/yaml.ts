import { parse, stringify } from 'yaml';
import { findCheckFunction } from './catalog';
import { normalizeCheck } from './normalize';
import type { Capabilities, DqCheck, TableShape, YamlImportItem } from './types';

/**
 * The one place the DQX YAML file format lives: a list of
 * `{name, criticality, check: {function, arguments}, filter?, user_metadata?}`.
 */

/** The file as a whole is not a DQX check list (not YAML, or not a list). The API answers 400. */
export class DqxYamlError extends Error {
  override name = 'DqxYamlError';
}

export interface YamlImportOptions {
  /** Validate columns against the table (422-style rejections name the column). */
  table?: TableShape;
  /** The workspace's abilities; geo functions are refused without spatial support. */
  capabilities?: Capabilities;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys sorted at every depth, so the same metadata always prints the same. */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedDeep(value[k])]),
  );
}

/** Arguments in the catalog's order (unknown ones last, sorted), without absent values. */
function orderedArguments(check: DqCheck): Record<string, unknown> {
  const specs = findCheckFunction(check.check_function)?.args.map((a) => a.name) ?? [];
  const keys = Object.keys(check.arguments).filter((k) => check.arguments[k] !== undefined);
  const known = specs.filter((k) => keys.includes(k));
  const rest = keys.filter((k) => !specs.includes(k)).sort();
  return Object.fromEntries([...known, ...rest].map((k) => [k, sortedDeep(check.arguments[k])]));
}

/**
 * Canonical DQX YAML for the checks, in their given order. `enabled`, `id` and `table_fqn` are not part of DQX's
 * format and are not written. Strings YAML 1.1 would read as something else (`yes`, `2024-01-01`) are quoted, so
 * DQX's PyYAML loader reads the same values back.
 */
export function toDqxYaml(checks: DqCheck[]): string {
  const items = checks.map((c) => {
    const item: Record<string, unknown> = {
      name: c.name,
      criticality: c.criticality,
      check: { function: c.check_function, arguments: orderedArguments(c) },
    };
    if (typeof c.filter === 'string' && c.filter.trim() !== '') item.filter = c.filter;
    if (isObject(c.user_metadata) && Object.keys(c.user_metadata).length > 0) {
      item.user_metadata = sortedDeep(c.user_metadata);
    }
    return item;
  });
  return stringify(items, { version: '1.1', lineWidth: 0, minContentWidth: 0 });
}

const ITEM_KEYS = new Set([
  'name',
  'criticality',
  'check',
  'filter',
  'user_metadata',
  // Clone-Xs's stored (flat) shape and Lakeward's API shape
  'table_fqn',
  'check_function',
  'arguments',
  'for_each_column',
  'filter_expr',
  'enabled',
]);
const CHECK_KEYS = new Set(['function', 'arguments', 'for_each_column']);

/**
 * Argument names DQX accepted before 0.x renamed them (`col_name`, `col_names`, `col_name1/2`): `col_names` on a
 * function that checks one column meant "each of these columns".
 */
function upgradeOldNames(fn: string | undefined, args: Record<string, unknown>) {
  const spec = fn ? findCheckFunction(fn) : undefined;
  const has = (name: string) => spec?.args.some((a) => a.name === name) ?? false;
  const out: Record<string, unknown> = {};
  let forEach: unknown;
  for (const [k, v] of Object.entries(args)) {
    if (k === 'col_name' && !('column' in args)) out.column = v;
    else if (k === 'col_name1' && !('column1' in args)) out.column1 = v;
    else if (k === 'col_name2' && !('column2' in args)) out.column2 = v;
    else if (k === 'col_names' && has('columns') && !('columns' in args)) out.columns = v;
    else if (k === 'col_names' && has('column') && !('column' in args)) forEach = v;
    else out[k] = v;
  }
  return { args: out, forEach };
}

/** One file item → the input normalizeCheck takes, or why it cannot be one. */
function itemInput(raw: unknown, tableFqn: string | undefined): Record<string, unknown> | string {
  if (!isObject(raw)) return 'each item must be a mapping with criticality and check';
  const unknownKey = Object.keys(raw).find((k) => !ITEM_KEYS.has(k));
  if (unknownKey)
    return `${unknownKey}: not a DQX check field (expected name, criticality, check, filter, user_metadata)`;
  const nested = raw.check;
  if (nested !== undefined && !isObject(nested)) return 'check: must be a mapping with function and arguments';
  if (isObject(nested)) {
    const bad = Object.keys(nested).find((k) => !CHECK_KEYS.has(k));
    if (bad) return `check.${bad}: not a DQX check field (expected function, arguments, for_each_column)`;
  }
  const fn = (isObject(nested) ? nested.function : undefined) ?? raw.check_function;
  const rawArgs = (isObject(nested) ? nested.arguments : undefined) ?? raw.arguments ?? {};
  if (!isObject(rawArgs)) return 'check.arguments: must be a mapping';
  const { args, forEach } = upgradeOldNames(typeof fn === 'string' ? fn : undefined, rawArgs);
  const forEachColumn = (isObject(nested) ? nested.for_each_column : undefined) ?? raw.for_each_column ?? forEach;
  const input: Record<string, unknown> = {
    table_fqn: tableFqn ?? raw.table_fqn,
    check_function: fn,
    arguments: args,
    criticality: raw.criticality,
    filter: raw.filter ?? raw.filter_expr ?? null,
    user_metadata: raw.user_metadata ?? null,
  };
  if (forEachColumn !== undefined) input.for_each_column = forEachColumn;
  if (raw.name !== undefined && raw.name !== null && raw.name !== '') input.name = raw.name;
  if (raw.enabled !== undefined) input.enabled = raw.enabled;
  return input;
}

/**
 * Reads canonical DQX YAML (as in DQX's docs, including the older `col_name`/`col_names` argument names), Clone-Xs's
 * export (its argument names and `warning` criticality) and Lakeward's own export. Every item goes through
 * normalizeCheck: each comes back created (one per column for for_each_column) or rejected with the reason; one bad
 * item does not stop the others. All checks belong to `table_fqn` when given, else to each item's own `table_fqn`.
 * Throws DqxYamlError when the text is not YAML or not a list.
 */
export function fromDqxYaml(text: string, table_fqn?: string, opts: YamlImportOptions = {}): YamlImportItem[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new DqxYamlError(`not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) return [];
  if (!Array.isArray(doc)) throw new DqxYamlError('YAML must be a list of check definitions');
  const out: YamlImportItem[] = [];
  doc.forEach((raw, index) => {
    const input = itemInput(raw, table_fqn);
    if (typeof input === 'string') {
      out.push({ status: 'rejected', index, reason: input });
      return;
    }
    const result = normalizeCheck(input, opts.table, opts.capabilities);
    if (!result.ok) {
      const reason = result.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
      out.push({ status: 'rejected', index, reason });
      return;
    }
    for (const check of result.check) out.push({ status: 'created', index, check });
  });
  return out;
}
