import type { DqCheck } from '../../data-quality/logic';
import type { OdcsQuality } from './document';

/** Databricks column type → ODCS v3.0.2 logicalType (which has no timestamp: dates and timestamps are `date`). */
export function logicalTypeOf(type: string): string {
  const t = type.toLowerCase().trim();
  if (/^(array)\b/.test(t)) return 'array';
  if (/^(struct|map)\b/.test(t)) return 'object';
  if (/^(tinyint|smallint|int|integer|bigint|long|short|byte)\b/.test(t)) return 'integer';
  if (/^(float|double|real|decimal|numeric|dec)\b/.test(t)) return 'number';
  if (/^(boolean|bool)\b/.test(t)) return 'boolean';
  if (/^(date|timestamp|timestamp_ntz|datetime)\b/.test(t)) return 'date';
  return 'string';
}

/** A type's family, parameters ignored: `varchar(10)` ≈ `string`, `int` ≈ `bigint`, `decimal(10,2)` ≈ `double`. */
export function typeFamily(type: string): string {
  const t = type.toLowerCase().trim();
  if (/^(timestamp|timestamp_ntz|datetime)\b/.test(t)) return 'timestamp';
  if (/^date\b/.test(t)) return 'date';
  if (/^(binary|blob)\b/.test(t)) return 'binary';
  if (/^(string|varchar|char|text)\b/.test(t)) return 'string';
  return logicalTypeOf(t);
}

export const typesCompatible = (declared: string, actual: string) => typeFamily(declared) === typeFamily(actual);

const severityOf = (c: DqCheck) => (c.criticality === 'warn' ? 'warning' : 'error');

/** The one column a check is about (`column`, or a one-element `columns`), if it has one. */
export function checkColumn(c: DqCheck): string | undefined {
  const a = c.arguments;
  if (typeof a.column === 'string') return a.column;
  if (Array.isArray(a.columns) && a.columns.length === 1 && typeof a.columns[0] === 'string') return a.columns[0];
  return undefined;
}

/**
 * A data-quality check as an ODCS quality rule: not-null and uniqueness as the standard's library rules, every
 * other check as a `custom` rule of engine `dqx` (its function and arguments as the implementation), so the
 * validation runs exactly the engine's check.
 */
export function qualityRuleOf(c: DqCheck): OdcsQuality {
  const base = { name: c.name, severity: severityOf(c) };
  // SQL stays with the data-quality engine (its guard checks it per caller); the contract only names the check.
  if (/^sql_/.test(c.check_function) || c.filter)
    return { type: 'text', description: `data-quality check ${c.check_function} (SQL; run by the DQ engine)`, ...base };
  if (c.check_function === 'is_not_null' && checkColumn(c))
    return { type: 'library', rule: 'nullCheck', mustBe: 0, dimension: 'completeness', unit: 'rows', ...base };
  if (c.check_function === 'is_unique' && checkColumn(c))
    return { type: 'library', rule: 'duplicateCount', mustBe: 0, dimension: 'uniqueness', unit: 'rows', ...base };
  return {
    type: 'custom',
    engine: 'dqx',
    implementation: { check_function: c.check_function, arguments: c.arguments },
    ...base,
  };
}

export type RuleMetric = 'rows' | 'failures';

/**
 * What runs for a quality rule: a DQ check whose failure count is the measured value, or the row count. Null for
 * rules Lakeward does not execute (text, sql, other engines, unknown library rules).
 */
export function checkForRule(
  q: OdcsQuality,
  tableFqn: string,
  column: string | undefined,
  name: string,
): { metric: 'rows' } | { metric: 'failures'; check: DqCheck } | null {
  const severity = q.severity === 'warning' || q.severity === 'warn' || q.severity === 'info' ? 'warn' : 'error';
  const check = (fn: string, args: Record<string, unknown>): DqCheck => ({
    id: name,
    name,
    table_fqn: tableFqn,
    check_function: fn,
    arguments: args,
    criticality: severity,
    enabled: true,
  });
  const type = q.type ?? 'library';
  if (type === 'library') {
    if (q.rule === 'rowCount') return { metric: 'rows' };
    if (!column) return null;
    if (q.rule === 'nullCheck' || q.rule === 'nullValues')
      return { metric: 'failures', check: check('is_not_null', { column }) };
    if (q.rule === 'duplicateCount' || q.rule === 'duplicateValues')
      return { metric: 'failures', check: check('is_unique', { columns: [column] }) };
    if ((q.rule === 'validValues' || q.rule === 'invalidValues') && Array.isArray(q.validValues))
      return { metric: 'failures', check: check('is_in_list', { column, allowed: q.validValues }) };
    return null;
  }
  if (type === 'custom' && q.engine === 'dqx') {
    const impl = (q.implementation ?? {}) as { check_function?: string; arguments?: Record<string, unknown> };
    if (!impl.check_function) return null;
    return { metric: 'failures', check: check(impl.check_function, impl.arguments ?? {}) };
  }
  return null;
}

/** Whether `value` meets the rule's threshold operators; with none, a check must have no failures. */
export function meetsThreshold(q: OdcsQuality, value: number, metric: RuleMetric): boolean {
  const ops: [unknown, (v: number) => boolean][] = [
    [q.mustBe, (v) => v === Number(q.mustBe)],
    [q.mustNotBe, (v) => v !== Number(q.mustNotBe)],
    [q.mustBeGreaterThan, (v) => v > Number(q.mustBeGreaterThan)],
    [q.mustBeGreaterOrEqualTo, (v) => v >= Number(q.mustBeGreaterOrEqualTo)],
    [q.mustBeLessThan, (v) => v < Number(q.mustBeLessThan)],
    [q.mustBeLessOrEqualTo, (v) => v <= Number(q.mustBeLessOrEqualTo)],
    [q.mustBeBetween, (v) => v >= q.mustBeBetween![0] && v <= q.mustBeBetween![1]],
    [q.mustNotBeBetween, (v) => v < q.mustNotBeBetween![0] || v > q.mustNotBeBetween![1]],
  ];
  const given = ops.filter(([operand]) => operand !== undefined);
  if (given.length === 0) return metric === 'rows' ? true : value === 0;
  return given.every(([, ok]) => ok(value));
}

/** `24` with unit `h` / `d` / `m` (minutes) / `y` in hours; null when not a number. */
export function hoursOf(value: unknown, unit: string | undefined): number | null {
  const v = Number(value);
  if (!Number.isFinite(v)) return null;
  const u = (unit ?? 'd').toLowerCase();
  if (/^(h|hr|hour|hours)$/.test(u)) return v;
  if (/^(m|min|minute|minutes)$/.test(u)) return v / 60;
  if (/^(y|yr|year|years)$/.test(u)) return v * 24 * 365;
  return v * 24;
}
