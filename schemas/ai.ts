import { z } from 'zod';

/** AI explanations and their token budget (`/api/ai`). */

export const CONTEXT_TYPES = ['query_explain', 'profiling', 'dashboard', 'audit', 'report', 'pii'] as const;

/** ai_token_budget of any AI-using request: default 50,000, 0–10,000,000, 0 disables AI. */
export const AiTokenBudgetSchema = z.number().int().min(0).max(10_000_000).default(50_000).meta({
  description: 'Tokens the request may spend on model calls; each call charges its full max_tokens; 0 disables AI',
});

export const SummarizeRequestSchema = z
  .strictObject({
    context_type: z.enum(CONTEXT_TYPES),
    sql: z.string().min(1).max(100_000).optional().meta({ description: 'One read-only query to explain' }),
    statement_id: z.string().min(1).max(64).optional().meta({ description: 'A workbench statement to explain' }),
    catalog: z.string().min(1).max(255).optional(),
    schema: z.string().min(1).max(255).optional(),
    data: z.unknown().optional().meta({ description: 'What to summarise for the other context types (JSON)' }),
    max_tokens: z.number().int().min(1).max(32_768).default(1_024),
    ai_token_budget: AiTokenBudgetSchema,
  })
  .refine((b) => [b.sql, b.statement_id].filter((x) => x !== undefined).length <= 1, {
    message: 'give sql or statement_id, not both',
    path: ['sql'],
  })
  .refine((b) => b.context_type !== 'query_explain' || b.sql !== undefined || b.statement_id !== undefined, {
    message: 'query_explain needs sql or statement_id',
    path: ['sql'],
  })
  .refine((b) => b.context_type === 'query_explain' || b.sql || b.statement_id || b.data !== undefined, {
    message: 'needs data, sql or statement_id',
    path: ['data'],
  });
export type SummarizeRequest = z.infer<typeof SummarizeRequestSchema>;

export const ExplainSchema = z.object({
  sql: z.string().meta({ description: 'The statement as the engine ran EXPLAIN on it (names qualified)' }),
  plan: z.string().meta({ description: 'The engine’s EXPLAIN output' }),
  tables: z.array(z.string()),
  filters: z.array(z.string()),
  joins: z.array(
    z.object({ type: z.string(), left: z.array(z.string()), right: z.string(), condition: z.string().nullable() }),
  ),
  aggregations: z.array(z.string()),
  group_by: z.array(z.string()),
  windows: z.array(z.string()),
});
export type Explain = z.infer<typeof ExplainSchema>;

export const AiSpendSchema = z.object({
  budget: z.number().int(),
  tokens_charged: z.number().int(),
  remaining: z.number().int(),
  calls: z.number().int(),
});

export const AI_SOURCES = ['template', 'serving_endpoint', 'external'] as const;
export const TEMPLATE_REASONS = ['no_model', 'disabled', 'budget', 'model_error'] as const;

export const SummarizeResponseSchema = z.object({
  summary: z.string(),
  source: z.enum(AI_SOURCES),
  reason: z
    .enum(TEMPLATE_REASONS)
    .optional()
    .meta({ description: 'Why the template answered: no model configured, budget 0, budget too small, call failed' }),
  explain: ExplainSchema.nullable(),
  ai: AiSpendSchema,
  usage_id: z.string(),
});
export type SummarizeResponse = z.infer<typeof SummarizeResponseSchema>;

export const UsageSchema = z.object({
  usage_id: z.string(),
  route: z.string(),
  job_id: z.string().nullable(),
  backend: z.enum(AI_SOURCES),
  model: z.string().nullable(),
  budget: z.number().int(),
  calls: z.number().int(),
  failed_calls: z.number().int(),
  budget_denials: z.number().int(),
  tokens_charged: z.number().int(),
  remaining: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
