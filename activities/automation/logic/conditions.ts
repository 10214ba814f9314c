import { lazyModule } from '../../../platform/lazy-module';
import type { LegacyCondition } from '../../../schemas/automation';

/** The CEL implementation (4 MB of heap) loads with the first condition checked or evaluated. */
const celLanguage = lazyModule<typeof import('@bufbuild/cel')>('@bufbuild/cel');

/** The one variable a condition may name. */
const ROOT = 'event';

export interface ConditionProblem {
  path: string;
  message: string;
}

const OPS: Record<string, string> = { eq: '==', ne: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=' };

function literal(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isInteger(v) ? `${v}.0` : String(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  throw new Error(`unsupported value ${JSON.stringify(v)}`);
}

/** `{field, operator, value}` → CEL (all conditions must hold). Numbers become doubles (event numbers are doubles). */
export function legacyToCel(conditions: LegacyCondition[]): string {
  return conditions
    .map((c) => {
      const ref = `${ROOT}.${c.field}`;
      if (c.operator === 'in') return `${ref} in ${literal(Array.isArray(c.value) ? c.value : [c.value])}`;
      if (c.operator === 'contains') return `${ref}.contains(${literal(String(c.value))})`;
      return `${ref} ${OPS[c.operator] ?? c.operator} ${literal(c.value)}`;
    })
    .join(' && ');
}

interface Node {
  exprKind: { case?: string; value?: unknown };
}

/** Every identifier and every `event.<field>` the expression reads (the first field after `event`). */
function references(expr: Node, idents: Set<string>, fields: Set<string>): void {
  const { case: kind, value } = expr.exprKind;
  if (!kind || !value) return;
  const v = value as Record<string, unknown>;
  if (kind === 'identExpr') idents.add(v.name as string);
  if (kind === 'selectExpr') {
    const operand = v.operand as Node;
    const inner = operand.exprKind;
    if (inner.case === 'identExpr' && (inner.value as { name: string }).name === ROOT) fields.add(v.field as string);
    references(operand, idents, fields);
  }
  if (kind === 'callExpr') {
    if (v.target) references(v.target as Node, idents, fields);
    for (const a of v.args as Node[]) references(a, idents, fields);
  }
  if (kind === 'listExpr') for (const e of v.elements as Node[]) references(e, idents, fields);
  if (kind === 'structExpr')
    for (const e of v.entries as { keyKind: { value?: unknown }; value: Node }[]) {
      if (e.keyKind.value && typeof e.keyKind.value === 'object') references(e.keyKind.value as Node, idents, fields);
      references(e.value, idents, fields);
    }
  if (kind === 'comprehensionExpr') {
    for (const k of ['iterRange', 'accuInit', 'loopCondition', 'loopStep', 'result'])
      if (v[k]) references(v[k] as Node, idents, fields);
  }
}

/**
 * Checks a CEL condition before it is saved: it parses, names no variable but `event` (comprehension variables
 * aside) and reads only `event` fields the trigger's events have. An empty expression means "always".
 */
export function checkCondition(cel: string, known: readonly string[]): ConditionProblem[] {
  if (!cel.trim()) return [];
  let parsed;
  try {
    parsed = celLanguage().parse(cel);
  } catch (err) {
    return [{ path: 'conditions', message: `not a CEL expression: ${(err as Error).message}` }];
  }
  const idents = new Set<string>();
  const fields = new Set<string>();
  const root = parsed.expr as unknown as Node;
  references(root, idents, fields);
  const locals = comprehensionVars(root);
  const problems: ConditionProblem[] = [];
  for (const id of idents)
    if (id !== ROOT && !locals.has(id))
      problems.push({ path: 'conditions', message: `unknown variable ${id}: a condition reads only event` });
  for (const f of fields)
    if (!known.includes(f))
      problems.push({ path: 'conditions', message: `unknown field event.${f}; known: ${known.join(', ')}` });
  return problems;
}

function comprehensionVars(expr: Node, out = new Set<string>()): Set<string> {
  const { case: kind, value } = expr.exprKind;
  if (!kind || !value) return out;
  const v = value as Record<string, unknown>;
  if (kind === 'comprehensionExpr') {
    out.add(v.iterVar as string);
    out.add(v.accuVar as string);
  }
  for (const child of Object.values(v))
    if (child && typeof child === 'object' && 'exprKind' in (child as object)) comprehensionVars(child as Node, out);
    else if (Array.isArray(child))
      for (const c of child) if (c && typeof c === 'object' && 'exprKind' in c) comprehensionVars(c as Node, out);
  return out;
}

/** JSON-ish event values as CEL inputs: plain objects become maps (CEL reads them field by field). */
function celValue(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(celValue);
  if (v && typeof v === 'object' && !(v instanceof Date))
    return new Map(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, celValue(x)]));
  return v === undefined ? null : v;
}

/** Runs a checked condition against an event: true, false, or the evaluation error's text. */
export function evaluateCondition(cel: string, event: Record<string, unknown>): boolean | { error: string } {
  if (!cel.trim()) return true;
  const { run, isCelError } = celLanguage();
  const out = run(cel, { [ROOT]: celValue(event) } as never);
  if (isCelError(out)) return { error: out.message };
  if (typeof out !== 'boolean') return { error: `the condition gave ${typeof out}, not a bool` };
  return out;
}
