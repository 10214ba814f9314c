import { z } from 'zod';

export const FinopsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(3660).default(30),
});

const Money = z.object({ dbus: z.number(), cost: z.number() });

/** Every billing view answers 200: `available: false` with the reason when the system tables cannot be read. */
const Unavailable = z.object({ available: z.literal(false), reason: z.string() });

export const BillingSchema = z
  .union([
    z.object({
      available: z.literal(true),
      days: z.number().int(),
      currency: z.literal('USD'),
      totals: Money,
      daily_trend: z.array(Money.extend({ date: z.string() })),
      by_sku: z.array(Money.extend({ sku_name: z.string() })),
      by_product: z.array(Money.extend({ product: z.string() })),
      by_warehouse: z.array(Money.extend({ warehouse_id: z.string() })),
      by_user: z.array(Money.extend({ user: z.string() })),
      by_job: z.array(
        Money.extend({ job_id: z.string(), job_type: z.string().nullable(), warehouse_id: z.string().nullable() }),
      ),
      /**
       * Where by_job comes from: `query_history` (the job-costs view: warehouse cost allocated by the duration of
       * each job's tagged statements, on both adapters) or `usage` (usage lines with a job id, when the query
       * history cannot be read).
       */
      by_job_source: z.enum(['query_history', 'usage']),
    }),
    Unavailable,
  ])
  .meta({ id: 'Billing' });

export const FinopsRowsSchema = z
  .union([
    z.object({
      available: z.literal(true),
      days: z.number().int(),
      rows: z.array(z.record(z.string(), z.unknown())),
    }),
    Unavailable,
  ])
  .meta({ id: 'FinopsRows' });
