import { z } from 'zod';

const money = z.number();
export const CopqParamsSchema = z
  .object({
    hourly_rate: z.number().min(0).optional(),
    rerun_cost: z.number().min(0).optional(),
    sla_penalty: z.number().min(0).optional(),
    downstream_multiplier: z.number().min(0).optional(),
    triage_hours: z.number().min(0).optional(),
    window_days: z.number().int().min(1).max(3660).optional(),
  })
  .strict()
  .meta({ id: 'CopqParams' });

export const CopqConfigSchema = z
  .object({
    hourly_rate: z.number(),
    rerun_cost: z.number(),
    sla_penalty: z.number(),
    downstream_multiplier: z.number(),
    triage_hours: z.number(),
    window_days: z.number().int(),
  })
  .meta({ id: 'CopqConfig' });

const Totals = { rerun: money, sla: money, triage: money, downstream: money, total: money };

export const CopqComputeSchema = z
  .object({
    params: CopqConfigSchema,
    window_start: z.string(),
    facts: z.number().int(),
    events: z.number().int(),
    ledger_available: z.boolean(),
    ledger_unavailable_reason: z.string().optional(),
  })
  .meta({ id: 'CopqCompute' });

export const CopqDaysQuery = z.object({ days: z.coerce.number().int().min(1).max(3660).optional() });

export const CopqSummarySchema = z
  .object({ window_days: z.number().int(), ...Totals, events: z.number().int(), tables: z.number().int() })
  .meta({ id: 'CopqSummary' });

export const CopqByTableSchema = z
  .object({
    window_days: z.number().int(),
    tables: z.array(z.object({ table: z.string(), ...Totals, events: z.number().int() })),
  })
  .meta({ id: 'CopqByTable' });

export const CopqTrendsSchema = z
  .object({ weeks: z.array(z.object({ week: z.string(), ...Totals })) })
  .meta({ id: 'CopqTrends' });
