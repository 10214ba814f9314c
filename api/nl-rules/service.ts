import { explainCheck, parseRule, suggestions, type DqxCheck } from '../../activities/nl-rules/logic';
import { splitFqn } from '../../activities/data-quality/logic/sql-text';
import { CheckCreateSchema } from '../../schemas/data-quality';
import { createChecks } from '../data-quality/checks-service';
import type { AppDeps } from '../deps';
import { HttpError, notFound } from '../middleware/http-error';

export async function tableColumns(deps: AppDeps, tableFqn: string): Promise<string[]> {
  const [catalog, schema, name] = splitFqn(tableFqn);
  const ws = await deps.workspaces.default();
  if (!(await ws.tableExists({ catalog, schema, name }))) throw notFound(`table ${tableFqn} does not exist`);
  return (await ws.describeTable({ catalog, schema, name })).columns.map((c) => c.name);
}

export const explanationOf = (checks: DqxCheck[]) => checks.map((c) => explainCheck(c) ?? c.name).join(' and ');

export type RuleAnswer =
  | { ok: true; checks: DqxCheck[]; explanation: string; confidence: number }
  | { ok: false; error: string; suggestions: string[]; nearest?: string[] };

/** One rule against a table's columns: its checks, or why not (with sentences that would parse). */
export function answer(text: string, columns: string[]): RuleAnswer {
  const r = parseRule(text, columns);
  if (r.ok) return { ok: true, checks: r.checks, explanation: explanationOf(r.checks), confidence: 1 };
  if (r.reason === 'column')
    return {
      ok: false,
      error: `${r.message}; nearest: ${r.nearest.join(', ')}`,
      nearest: r.nearest,
      suggestions: suggestions(text, columns),
    };
  return { ok: false, error: `cannot read the rule: ${r.message}`, suggestions: suggestions(text, columns) };
}

/** The 422 of a rule that does not parse: the problem, then each suggestion as a detail (`suggestions.<i>`). */
export function refused(a: Extract<RuleAnswer, { ok: false }>): HttpError {
  return new HttpError(422, a.nearest ? 'UNKNOWN_COLUMN' : 'UNPARSEABLE_RULE', a.error, [
    { path: 'body.text', message: a.error },
    ...(a.nearest ?? []).map((c, i) => ({ path: `nearest_columns.${i}`, message: c })),
    ...a.suggestions.map((s, i) => ({ path: `suggestions.${i}`, message: s })),
  ]);
}

/** Stores the checks through the DQ engine's own create (validated against the table). */
export async function saveChecks(deps: AppDeps, tableFqn: string, checks: DqxCheck[]): Promise<string[]> {
  const ids: string[] = [];
  for (const c of checks) {
    const body = CheckCreateSchema.parse({
      table_fqn: tableFqn,
      name: c.name,
      check_function: c.check.function,
      arguments: c.check.arguments,
      criticality: c.criticality,
      filter: c.filter ?? null,
    });
    ids.push(...(await createChecks(deps, body)).map((r) => r.checkId));
  }
  return ids;
}
