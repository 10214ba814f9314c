import { ARG_SCHEMAS, ARG_TYPE_TEXT } from './arg-types';
import { CLONE_XS_ALIASES, findCheckFunction } from './catalog';
import { functionRules } from './normalize-rules';
import { checkUserSql } from './sql-guard';
import { tableSql } from './sql-text';
import type { Capabilities, CheckFunction, CheckIssue, DqCheck, NormalizeResult, TableShape } from './types';

/**
 * A check as users send it: the API's flat shape (`check_function`, `arguments`, `filter` or Clone-Xs's
 * `filter_expr`) or a DQX YAML item (`check: {function, arguments | for_each_column}`).
 */
export interface CheckInput {
  id?: string;
  table_fqn?: string;
  name?: string | null;
  check_function?: string;
  arguments?: Record<string, unknown>;
  for_each_column?: unknown;
  criticality?: string;
  enabled?: boolean;
  filter?: string | null;
  filter_expr?: string | null;
  user_metadata?: Record<string, unknown> | null;
  check?: { function?: string; arguments?: Record<string, unknown>; for_each_column?: unknown };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates one check against the catalog (and the table and workspace when given); expands for_each_column. */
export function normalizeCheck(input: unknown, table?: TableShape, capabilities?: Capabilities): NormalizeResult {
  const issues: CheckIssue[] = [];
  const bad = (path: string, message: string, status: 400 | 422 = 422) => issues.push({ path, message, status });
  if (!isObject(input)) return { ok: false, issues: [{ path: '', message: 'a check must be an object', status: 400 }] };
  const body = input as CheckInput;
  const nested = isObject(body.check) ? body.check : undefined;
  const fnName = body.check_function ?? nested?.function;
  if (typeof fnName !== 'string' || fnName.trim() === '') {
    return { ok: false, issues: [{ path: 'check_function', message: 'check_function is required', status: 422 }] };
  }
  const fn = findCheckFunction(fnName.trim());
  if (!fn) {
    return {
      ok: false,
      issues: [{ path: 'check_function', message: `unknown check function ${JSON.stringify(fnName)}`, status: 422 }],
    };
  }
  const tableFqn = typeof body.table_fqn === 'string' ? body.table_fqn.trim() : '';
  if (!tableSql(tableFqn)) bad('table_fqn', 'table_fqn must be catalog.schema.table', 400);
  const criticality = body.criticality === undefined || body.criticality === null ? 'error' : body.criticality;
  if (!['error', 'warn', 'warning'].includes(criticality)) {
    bad('criticality', `criticality must be error or warn (warning is accepted), got ${JSON.stringify(criticality)}`);
  }
  const rawArgs = body.arguments ?? nested?.arguments ?? {};
  if (!isObject(rawArgs))
    return { ok: false, issues: [{ path: 'arguments', message: 'arguments must be an object', status: 400 }] };
  const filter = body.filter ?? body.filter_expr ?? null;
  if (filter !== null && typeof filter !== 'string') bad('filter', 'filter must be a SQL predicate string', 400);
  else if (typeof filter === 'string' && filter.trim() !== '') {
    const problem = checkUserSql(filter, 'expression');
    if (problem) bad('filter', `filter ${problem}`, 400);
  }
  if (body.user_metadata !== undefined && body.user_metadata !== null && !isObject(body.user_metadata)) {
    bad('user_metadata', 'user_metadata must be an object', 400);
  }
  if (body.enabled !== undefined && typeof body.enabled !== 'boolean')
    bad('enabled', 'enabled must be true or false', 400);
  if (body.name !== undefined && body.name !== null && typeof body.name !== 'string')
    bad('name', 'name must be a string', 400);
  refuseUnsupported(fn, capabilities, bad);

  const forEach = body.for_each_column ?? nested?.for_each_column;
  const argSets: Record<string, unknown>[] = [];
  const base = renameAliases(fn.name, rawArgs);
  if (forEach !== undefined) {
    const target = fn.args.find((a) => a.name === 'column') ?? fn.args.find((a) => a.name === 'columns');
    if (!Array.isArray(forEach) || forEach.length === 0 || !target) {
      bad('for_each_column', target ? 'for_each_column must be a non-empty list' : `${fn.name} takes no column`);
    } else for (const c of forEach) argSets.push({ ...base, [target.name]: c });
  } else argSets.push(base);

  const checks: DqCheck[] = [];
  argSets.forEach((args, i) => {
    const prefix = forEach !== undefined ? `for_each_column[${i}]` : 'arguments';
    const ordered = validateArguments(fn, args, table, (path, message, status) =>
      bad(path.replace(/^arguments/, prefix), message, status),
    );
    const column =
      typeof ordered.column === 'string'
        ? ordered.column
        : Array.isArray(ordered.columns)
          ? ordered.columns.join('_')
          : ordered.column1;
    const explicitName = typeof body.name === 'string' && body.name.trim() !== '' ? body.name.trim() : null;
    const name =
      explicitName && argSets.length === 1
        ? explicitName
        : explicitName
          ? `${explicitName}_${column}`
          : column
            ? `${fn.name}_${column}`
            : fn.name;
    checks.push({
      ...(body.id ? { id: body.id } : {}),
      table_fqn: tableFqn,
      name,
      check_function: fn.name,
      arguments: ordered,
      criticality: criticality === 'warning' ? 'warn' : (criticality as 'error' | 'warn'),
      enabled: body.enabled ?? true,
      filter: typeof filter === 'string' && filter.trim() !== '' ? filter.trim() : null,
      user_metadata: isObject(body.user_metadata) ? body.user_metadata : null,
    });
  });
  return issues.length ? { ok: false, issues } : { ok: true, check: checks, issues: [] };
}

function refuseUnsupported(fn: CheckFunction, caps: Capabilities | undefined, bad: (p: string, m: string) => void) {
  if (fn.needs?.includes('anomaly_model')) {
    bad(
      'check_function',
      `${fn.name} needs a trained row-anomaly model and a model registry, which Lakeward does not have`,
    );
  }
  if (fn.needs?.includes('spatial') && caps && !caps.spatial) {
    bad(
      'check_function',
      `${fn.name} needs geometry (ST_*) functions, which this workspace's SQL engine does not have`,
    );
  }
}

function renameAliases(fn: string, args: Record<string, unknown>): Record<string, unknown> {
  const aliases = CLONE_XS_ALIASES[fn] ?? {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    const to = aliases[k];
    if (to && !(to in args)) out[to] = v;
    else out[k] = v;
  }
  return out;
}

type Bad = (path: string, message: string, status?: 400 | 422) => void;

/** Checks each argument's presence, type and columns; returns them in the catalog's order. */
function validateArguments(fn: CheckFunction, args: Record<string, unknown>, table: TableShape | undefined, bad: Bad) {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(args)) {
    if (!fn.args.some((a) => a.name === key)) bad(`arguments.${key}`, `${fn.name} has no argument ${key}`);
  }
  for (const spec of fn.args) {
    let value = args[spec.name];
    if (value === undefined || value === null) {
      if (spec.required)
        bad(`arguments.${spec.name}`, `${fn.name} needs argument ${spec.name} (${ARG_TYPE_TEXT[spec.type]})`);
      continue;
    }
    if (spec.type === 'columns' && typeof value === 'string') value = [value];
    const parsed = ARG_SCHEMAS[spec.type].safeParse(value);
    if (!parsed.success) {
      bad(`arguments.${spec.name}`, `${spec.name} must be ${ARG_TYPE_TEXT[spec.type]}, got ${JSON.stringify(value)}`);
      continue;
    }
    out[spec.name] = parsed.data;
    const cols =
      spec.type === 'column' ? [parsed.data as string] : spec.type === 'columns' ? (parsed.data as string[]) : [];
    const own = !spec.name.startsWith('ref_') && spec.name !== 'condition_column';
    if (table && own) {
      for (const c of cols) {
        if (!table.columns.some((tc) => tc.name.toLowerCase() === c.toLowerCase())) {
          bad(`arguments.${spec.name}`, `column ${JSON.stringify(c)} is not in the table`);
        }
      }
    }
    if (spec.type === 'sql_expression' || spec.type === 'sql_query') {
      const problem = checkUserSql(parsed.data as string, spec.type === 'sql_query' ? 'query' : 'expression');
      if (problem) bad(`arguments.${spec.name}`, `${spec.name} ${problem}`, 400);
    }
    if (spec.type === 'table' && !tableSql(parsed.data as string)) {
      bad(`arguments.${spec.name}`, `${spec.name} must be catalog.schema.table`);
    }
  }
  for (const [path, message] of functionRules(fn.name, out)) bad(path, message);
  return out;
}
