import { z } from 'zod';
import { BUDGET_CATEGORIES } from '../../activities/finops/logic/budgets';

const Scope = z
  .object({ warehouse_id: z.string().min(1).optional(), job_type: z.string().min(1).optional() })
  .strict()
  .describe('Counts only the cost of one warehouse and/or one job type');

export const BudgetCreateSchema = z
  .object({
    name: z.string().min(1).max(200),
    period: z.literal('monthly').default('monthly'),
    category: z.enum(BUDGET_CATEGORIES),
    amount_usd: z.number().positive(),
    alert_threshold_pct: z.number().gt(0).lt(100).default(80),
    scope: Scope.nullable().optional(),
    webhook_url: z.string().nullable().optional(),
  })
  .strict()
  .meta({ id: 'BudgetCreate' });

export const BudgetPatchSchema = z
  .object({
    name: z.string().min(1).max(200).optional(),
    category: z.enum(BUDGET_CATEGORIES).optional(),
    amount_usd: z.number().positive().optional(),
    alert_threshold_pct: z.number().gt(0).lt(100).optional(),
    scope: Scope.nullable().optional(),
    webhook_url: z.string().nullable().optional(),
  })
  .strict()
  .meta({ id: 'BudgetPatch' });

export const BudgetSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    period: z.literal('monthly'),
    category: z.enum(BUDGET_CATEGORIES),
    amount_usd: z.number(),
    alert_threshold_pct: z.number(),
    scope: Scope.nullable(),
    webhook_url: z.string().nullable(),
    current_period: z.string(),
    actual_usd: z.number(),
    forecast_usd: z.number(),
    utilization_pct: z.number(),
    state: z.enum(['ok', 'warning', 'over']),
    cost_available: z.boolean(),
    cost_unavailable_reason: z.string().optional(),
    alerts: z.array(z.object({ period: z.string(), level: z.string(), created_at: z.string() })),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Budget' });

export const BudgetListSchema = z.object({ budgets: z.array(BudgetSchema) }).meta({ id: 'BudgetList' });

export const BudgetIdParams = z.object({ id: z.uuid() });

export const BudgetEvaluationSchema = z
  .object({
    period: z.string(),
    evaluated: z.number().int(),
    alerts_raised: z.number().int(),
    webhooks_sent: z.number().int(),
    webhook_failures: z.number().int(),
  })
  .meta({ id: 'BudgetEvaluation' });
