import type { CONTEXT_TYPES } from '../../../schemas/ai';

/**
 * The template engine: deterministic text from facts, the answer whenever no model is configured, the budget
 * does not allow a call, or a call fails. Same facts in, same text out.
 */

export type ContextType = (typeof CONTEXT_TYPES)[number];

/** Query facts as the engine reads them (see platform/sql/query-facts.ts). */
export interface ExplainFacts {
  tables: string[];
  filters: string[];
  joins: { type: string; left: string[]; right: string; condition: string | null }[];
  aggregations: string[];
  group_by: string[];
  windows: string[];
}

const list = (xs: string[]) =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A query explained in plain sentences: tables, joins, filters, grouping, aggregations, windows. */
export function explainText(f: ExplainFacts): string {
  const out: string[] = [];
  out.push(
    f.tables.length
      ? `The query reads ${plural(f.tables.length, 'table')}: ${list(f.tables)}.`
      : 'The query reads no table.',
  );
  for (const j of f.joins) {
    const on = j.condition ? ` on ${j.condition}` : '';
    out.push(`It joins ${list(j.left)} with ${j.right} (${j.type} JOIN${on}).`);
  }
  out.push(
    f.filters.length
      ? `It keeps rows where ${f.filters.join(' and ')}.`
      : 'It applies no filter, so every row of its tables is read.',
  );
  if (f.group_by.length) out.push(`It groups by ${list(f.group_by)}.`);
  if (f.aggregations.length) out.push(`It computes ${list(f.aggregations)}.`);
  if (f.windows.length)
    out.push(`It uses the window ${f.windows.length === 1 ? 'function' : 'functions'} ${list(f.windows)}.`);
  return out.join(' ');
}

type Data = unknown;

function describeValue(v: Data): string {
  if (v === null || v === undefined) return 'empty';
  if (Array.isArray(v)) return plural(v.length, 'item');
  if (typeof v === 'object') return plural(Object.keys(v).length, 'field');
  if (typeof v === 'string') return v.length > 60 ? `${JSON.stringify(v.slice(0, 57))}…` : JSON.stringify(v);
  return String(v);
}

const TITLES: Record<Exclude<ContextType, 'query_explain'>, string> = {
  profiling: 'Profile summary',
  dashboard: 'Dashboard summary',
  audit: 'Audit summary',
  report: 'Report summary',
  pii: 'PII scan summary',
};

/** Any other context: its data's top-level fields in order, each with its value or size (first 12 fields). */
export function dataText(contextType: Exclude<ContextType, 'query_explain'>, data: Data): string {
  const title = TITLES[contextType];
  if (data === null || data === undefined) return `${title}: no data was given.`;
  if (typeof data !== 'object' || Array.isArray(data)) return `${title}: ${describeValue(data)}.`;
  const entries = Object.entries(data as Record<string, Data>);
  const shown = entries.slice(0, 12).map(([k, v]) => `${k} ${describeValue(v)}`);
  const more = entries.length > 12 ? `, and ${plural(entries.length - 12, 'more field')}` : '';
  return `${title}: ${plural(entries.length, 'field')} — ${shown.join('; ')}${more}.`;
}

/** The system prompt of a model call for a context type (facts or data follow as the user message). */
export function systemPrompt(contextType: ContextType): string {
  if (contextType === 'query_explain') {
    return 'Explain what this SQL query does for a data engineer in at most five sentences. Use only the facts given.';
  }
  return `Summarise this ${contextType} data for a data platform team in at most five sentences. Use only the data given.`;
}
