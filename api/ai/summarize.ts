import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { budgetedCall } from '../../activities/ai/logic/budgeted';
import { dataText, explainText, systemPrompt } from '../../activities/ai/logic/template';
import { chatCompletion } from '../../platform/ai/chat';
import { readOnlyStatement, StatementRefusedError } from '../../platform/sql/read-only-statement';
import { queryFacts } from '../../platform/sql/query-facts';
import type { Explain, SummarizeRequest, SummarizeResponse } from '../../schemas/ai';
import type { Caller } from '../../schemas/governance';
import { createUsage, getUsage, recordCall, reserveTokens, type AiUsageRow } from '../../store/ai/usage';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';
import { checkedStatement, statementOf } from '../workbench/statements';
import { modelTarget } from './model';

export const SUMMARIZE_ROUTE = 'POST /api/ai/summarize';

/**
 * The engine's facts about one query: checked like a workbench statement (read-only, the caller's access
 * policies), then parsed for tables, filters, joins and aggregations, and EXPLAINed by the workspace's engine.
 */
export async function explainQuery(
  deps: AppDeps,
  req: Request,
  caller: Caller,
  q: { sql: string; catalog?: string | null; schema?: string | null; field: string },
): Promise<Explain> {
  let kind: string;
  try {
    kind = readOnlyStatement(q.sql).kind;
  } catch (err) {
    if (!(err instanceof StatementRefusedError)) throw err;
    throw new HttpError(400, 'STATEMENT_NOT_ALLOWED', err.message, [
      { path: q.field, message: err.keyword ? `${err.keyword} is not allowed` : err.message },
    ]);
  }
  if (!['SELECT', 'WITH', 'VALUES'].includes(kind)) {
    throw new HttpError(400, 'VALIDATION_ERROR', `${q.field} must be a query to explain, not ${kind}`, [
      { path: q.field, message: `a query (SELECT, WITH or VALUES) is explained; got ${kind}` },
    ]);
  }
  const { sql } = await checkedStatement(
    deps,
    caller,
    { statement: q.sql, catalog: q.catalog ?? undefined, schema: q.schema ?? undefined, parameters: [] },
    q.field,
  );
  const facts = await queryFacts(sql);
  const ws = await deps.workspaces.resolve(req);
  const planned = await ws.executeStatement(`EXPLAIN ${sql}`, { parameters: [], rowLimit: 10_000, timeoutMs: 60_000 });
  const plan = planned.rows.map((r) => r.map((v) => (v === null ? '' : String(v))).join('\n')).join('\n');
  return { sql, plan, ...facts };
}

export function spendOf(u: AiUsageRow): SummarizeResponse['ai'] {
  return {
    budget: u.budget,
    tokens_charged: u.tokensCharged,
    remaining: Math.max(0, u.budget - u.tokensCharged),
    calls: u.calls,
  };
}

/** POST /api/ai/summarize: facts from the engine, words from the model within the budget, else the template. */
export async function summarize(
  deps: AppDeps,
  req: Request,
  caller: Caller,
  body: SummarizeRequest,
): Promise<SummarizeResponse> {
  const target = modelTarget(deps, req);
  let query: { sql: string; catalog?: string | null; schema?: string | null; field: string } | null = null;
  if (body.statement_id) {
    const row = await statementOf(deps, caller, body.statement_id);
    query = { sql: row.statement, catalog: row.catalog, schema: row.schema, field: 'body.statement_id' };
  } else if (body.sql) {
    query = { sql: body.sql, catalog: body.catalog, schema: body.schema, field: 'body.sql' };
  }
  const explain = query ? await explainQuery(deps, req, caller, query) : null;
  const ctx = body.context_type;
  const template = () => {
    const parts: string[] = [];
    if (explain) parts.push(explainText(explain));
    if (ctx !== 'query_explain' && (body.data !== undefined || !explain)) parts.push(dataText(ctx, body.data));
    return parts.join(' ');
  };
  const usageId = randomUUID();
  const db = deps.store.db;
  await createUsage(db, { id: usageId, route: SUMMARIZE_ROUTE, budget: body.ai_token_budget });
  const user = JSON.stringify(
    explain
      ? {
          sql: explain.sql,
          plan: explain.plan,
          facts: { ...explain, sql: undefined, plan: undefined },
          data: body.data,
        }
      : { data: body.data },
  );
  const result = await budgetedCall(
    {
      hasModel: target !== null,
      reserve: (n) => reserveTokens(db, usageId, n),
      call: () => chatCompletion(target!, { system: systemPrompt(ctx), user, maxTokens: body.max_tokens }),
      record: (ok) => recordCall(db, usageId, { backend: target!.backend, model: target!.model, ok }),
      template,
    },
    body.max_tokens,
  );
  const usage = (await getUsage(db, usageId))!;
  return {
    summary: result.value,
    source: result.fromModel ? target!.backend : 'template',
    ...(result.fromModel ? {} : { reason: result.reason }),
    explain,
    ai: spendOf(usage),
    usage_id: usageId,
  };
}
