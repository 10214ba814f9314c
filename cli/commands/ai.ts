import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

interface Summary {
  summary: string;
  source: string;
  reason?: string;
  explain: {
    tables: string[];
    filters: string[];
    joins: { type: string; right: string; condition: string | null }[];
    plan: string;
  } | null;
  ai: { budget: number; tokens_charged: number; remaining: number; calls: number };
  usage_id: string;
}

type ExplainOptions = ApiOptions & {
  sql?: string;
  file?: string;
  catalog?: string;
  schema?: string;
  model?: string;
  maxTokens?: string;
  budget?: string;
  plan?: boolean;
};

/** The text of `lakeward ai explain`: the explanation, then where it came from and what it cost. */
export function explainText(s: Summary, withPlan = false): string {
  const lines = [s.summary, ''];
  lines.push(`source: ${s.source}${s.reason ? ` (${s.reason})` : ''}`);
  lines.push(`tokens: ${s.ai.tokens_charged} of ${s.ai.budget} charged, ${s.ai.calls} call(s); usage ${s.usage_id}`);
  if (withPlan && s.explain) lines.push('', s.explain.plan);
  return lines.join('\n');
}

/** `lakeward ai explain --sql "<query>"`: the engine's facts in words (a model when one is named or configured). */
export function registerAiCommands(program: Command): void {
  const ai = program.command('ai').description('AI explanations within a token budget (template answers offline)');
  withApiOptions(
    ai
      .command('explain')
      .description('explain a read-only query: tables, filters, joins, aggregations and the plan')
      .option('--sql <sql>', 'the query')
      .option('--file <path>', 'read the query from a file')
      .option('--catalog <catalog>', 'catalog for unqualified names')
      .option('--schema <schema>', 'schema for unqualified names')
      .option('--model <endpoint>', 'serving endpoint to ask (sent as X-Databricks-Model)')
      .option('--max-tokens <n>', 'max_tokens of the model call (default 1024)')
      .option('--budget <n>', 'ai_token_budget (default 50000; 0 disables AI)')
      .option('--plan', 'print the engine plan too'),
  ).action(async (opts: ExplainOptions) => {
    const sql = opts.sql ?? (opts.file ? readFileSync(opts.file, 'utf8') : undefined);
    if (!sql) throw new Error('give --sql "<query>" or --file <path>');
    const body = {
      context_type: 'query_explain',
      sql,
      ...(opts.catalog ? { catalog: opts.catalog } : {}),
      ...(opts.schema ? { schema: opts.schema } : {}),
      ...(opts.maxTokens ? { max_tokens: Number(opts.maxTokens) } : {}),
      ...(opts.budget !== undefined ? { ai_token_budget: Number(opts.budget) } : {}),
    };
    const headers: Record<string, string> = opts.model ? { 'X-Databricks-Model': opts.model } : {};
    const res = await apiClient(opts).request<Summary>('POST', '/api/ai/summarize', body, headers);
    print(opts, res, (s) => explainText(s, opts.plan));
  });
}
