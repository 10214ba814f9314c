import type { DqCheck } from '../../data-quality/logic';
import { objectFor, type OdcsDocument, type OdcsQuality } from './document';
import { odcsIssues } from './odcs-schema';
import { checkForRule, hoursOf, meetsThreshold, typesCompatible } from './types';

export type ViolationType =
  | 'invalid_document'
  | 'table_not_found'
  | 'missing_column'
  | 'type_mismatch'
  | 'required_has_nulls'
  | 'unique_has_duplicates'
  | 'quality_rule_failed'
  | 'freshness_exceeded';

export interface Violation {
  type: ViolationType;
  message: string;
  column?: string;
  rule?: string;
  observed?: unknown;
  expected?: unknown;
}

export const SECTIONS = ['fundamentals', 'schema', 'quality', 'sla'] as const;
export type Section = (typeof SECTIONS)[number];

export interface SectionResult {
  passed: boolean;
  violations: Violation[];
  /** Rules or properties looked at but not run, and why. */
  skipped: string[];
}

/** One thing to measure with the data-quality engine, and how to judge it. */
export interface PlannedCheck {
  section: 'schema' | 'quality';
  kind: 'required' | 'unique' | 'rule';
  column?: string;
  rule?: OdcsQuality;
  label: string;
  metric: 'rows' | 'failures';
  check?: DqCheck;
}

export interface ValidationPlan {
  tableFqn: string;
  sections: Record<Section, SectionResult>;
  checks: PlannedCheck[];
  freshness: { hours: number; property: string } | null;
}

const empty = (): SectionResult => ({ passed: true, violations: [], skipped: [] });
const lower = (s: string) => s.toLowerCase();

/**
 * What validating `doc` against a table with `columns` (null: the table does not exist) takes: the schema
 * differences found from the columns alone, and the checks the engine must run for the rest.
 */
export function planValidation(
  doc: OdcsDocument,
  tableFqn: string,
  columns: { name: string; type: string }[] | null,
): ValidationPlan {
  const sections = { fundamentals: empty(), schema: empty(), quality: empty(), sla: empty() };
  const plan: ValidationPlan = { tableFqn, sections, checks: [], freshness: null };
  for (const i of odcsIssues(doc))
    sections.fundamentals.violations.push({ type: 'invalid_document', message: `${i.path} ${i.message}` });
  if (!columns) {
    sections.schema.violations.push({ type: 'table_not_found', message: `table ${tableFqn} does not exist` });
    return plan;
  }
  const obj = objectFor(doc, tableFqn);
  const actual = new Map(columns.map((c) => [lower(c.name), c]));
  const present = new Set<string>();
  for (const p of obj?.properties ?? []) {
    const col = actual.get(lower(p.name));
    if (!col) {
      sections.schema.violations.push({
        type: 'missing_column',
        column: p.name,
        message: `column ${p.name} is in the contract but not in ${tableFqn}`,
      });
      continue;
    }
    present.add(lower(p.name));
    if (p.physicalType && !typesCompatible(p.physicalType, col.type))
      sections.schema.violations.push({
        type: 'type_mismatch',
        column: p.name,
        expected: p.physicalType,
        observed: col.type,
        message: `column ${p.name} is ${col.type}, the contract says ${p.physicalType}`,
      });
    const check = (label: string, fn: string, args: Record<string, unknown>): DqCheck => ({
      id: label,
      name: label,
      table_fqn: tableFqn,
      check_function: fn,
      arguments: args,
      criticality: 'error',
      enabled: true,
    });
    if (p.required) {
      const label = `required:${col.name}`;
      plan.checks.push({
        section: 'schema',
        kind: 'required',
        column: col.name,
        label,
        metric: 'failures',
        check: check(label, 'is_not_null', { column: col.name }),
      });
    }
    if (p.unique || (p.primaryKey && (obj?.properties ?? []).filter((x) => x.primaryKey).length === 1)) {
      const label = `unique:${col.name}`;
      plan.checks.push({
        section: 'schema',
        kind: 'unique',
        column: col.name,
        label,
        metric: 'failures',
        check: check(label, 'is_unique', { columns: [col.name] }),
      });
    }
  }
  const rules: { q: OdcsQuality; column?: string }[] = [
    ...(obj?.quality ?? []).map((q) => ({ q })),
    ...(obj?.properties ?? []).flatMap((p) => (p.quality ?? []).map((q) => ({ q, column: p.name }))),
  ];
  rules.forEach(({ q, column }, i) => {
    const label = q.name ?? `${column ? `${column}:` : ''}${q.rule ?? q.type ?? 'rule'}#${i + 1}`;
    const args = (q.implementation as { arguments?: Record<string, unknown> } | undefined)?.arguments ?? {};
    const named = [column, args.column, ...(Array.isArray(args.columns) ? args.columns : [])];
    const missing = named.find((c): c is string => typeof c === 'string' && actual.size > 0 && !present.has(lower(c)));
    if (missing && (column || !actual.has(lower(missing)))) {
      sections.quality.skipped.push(`${label}: column ${missing} is missing`);
      return;
    }
    const col = column ? actual.get(lower(column))!.name : undefined;
    const run = checkForRule(q, tableFqn, col, label);
    if (!run) {
      sections.quality.skipped.push(
        `${label}: ${[q.type ?? 'library', q.rule ?? q.engine].filter(Boolean).join(' ')} rule is not executed`,
      );
      return;
    }
    plan.checks.push({ section: 'quality', kind: 'rule', column: col, rule: q, label, ...run });
  });
  const latency = (doc.slaProperties ?? []).find((s) => /^(latency|freshness|ly)$/i.test(s.property));
  const hours = latency ? hoursOf(latency.value, latency.unit) : null;
  if (latency && hours !== null) plan.freshness = { hours, property: latency.property };
  return plan;
}

/** Measured values: the engine's failures per planned check label, the row count, the last commit time. */
export interface Measured {
  rows: number;
  failures: Map<string, number>;
  /** Check labels the engine could not run, with the error. */
  errors: Map<string, string>;
  lastModified: string | null;
  now: Date;
}

export interface ValidationOutcome {
  table_fqn: string;
  status: 'passed' | 'failed';
  /** True when the table's schema no longer matches the contract. */
  drift: boolean;
  violation_count: number;
  sections: Record<Section, SectionResult>;
}

/** The verdict per section from the plan and what the engine measured; any violation makes it `failed`. */
export function judgeValidation(plan: ValidationPlan, m: Measured): ValidationOutcome {
  const s = structuredClone(plan.sections);
  for (const c of plan.checks) {
    const error = m.errors.get(c.label);
    if (error !== undefined) {
      s[c.section].violations.push({
        type:
          c.kind === 'rule'
            ? 'quality_rule_failed'
            : c.kind === 'required'
              ? 'required_has_nulls'
              : 'unique_has_duplicates',
        column: c.column,
        rule: c.label,
        message: `${c.label} could not run: ${error}`,
      });
      continue;
    }
    const value = c.metric === 'rows' ? m.rows : (m.failures.get(c.label) ?? 0);
    if (c.kind === 'required' && value > 0)
      s.schema.violations.push({
        type: 'required_has_nulls',
        column: c.column,
        observed: value,
        message: `required column ${c.column} has ${value} null value(s)`,
      });
    if (c.kind === 'unique' && value > 0)
      s.schema.violations.push({
        type: 'unique_has_duplicates',
        column: c.column,
        observed: value,
        message: `unique column ${c.column} has ${value} duplicated row(s)`,
      });
    if (c.kind === 'rule' && !meetsThreshold(c.rule!, value, c.metric))
      s.quality.violations.push({
        type: 'quality_rule_failed',
        column: c.column,
        rule: c.label,
        observed: value,
        message: `quality rule ${c.label} measured ${value} ${c.metric === 'rows' ? 'row(s)' : 'failing row(s)'}, outside its threshold`,
      });
  }
  if (plan.freshness && m.lastModified) {
    const age = (m.now.getTime() - Date.parse(m.lastModified)) / 3_600_000;
    if (age > plan.freshness.hours)
      s.sla.violations.push({
        type: 'freshness_exceeded',
        observed: Math.round(age * 100) / 100,
        expected: plan.freshness.hours,
        message: `last change ${Math.round(age * 10) / 10} h ago, the ${plan.freshness.property} SLA allows ${plan.freshness.hours} h`,
      });
  }
  for (const k of Object.keys(s) as Section[]) s[k].passed = s[k].violations.length === 0;
  const count = Object.values(s).reduce((n, x) => n + x.violations.length, 0);
  const drift = s.schema.violations.some((v) =>
    ['missing_column', 'type_mismatch', 'table_not_found'].includes(v.type),
  );
  return { table_fqn: plan.tableFqn, status: count ? 'failed' : 'passed', drift, violation_count: count, sections: s };
}
