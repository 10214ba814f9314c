import { z } from 'zod';

/**
 * Prices the usage ledger bills with. Each value becomes a system.billing.list_prices row from the time it is
 * first seen, so changing a price never reprices history. Defaults: Databricks' published list prices per DBU
 * for SQL Pro, Serverless and Classic, and $0.023 per GB-month of storage.
 */
export const costSchema = z.strictObject({
  dbu_price_usd: z
    .strictObject({
      Pro: z.number().min(0).default(0.55),
      Serverless: z.number().min(0).default(0.7),
      Classic: z.number().min(0).default(0.22),
    })
    .prefault({}),
  price_per_gb: z.number().min(0).default(0.023),
  /** The recommendation analysers' thresholds (README "Recommendations"). */
  recommendations: z
    .strictObject({
      idle_share: z.number().min(0).max(1).default(0.5),
      max_auto_stop_mins: z.number().int().min(0).default(60),
      target_auto_stop_mins: z.number().int().min(10).default(10),
      vacuum_bytes: z
        .number()
        .int()
        .min(0)
        .default(2 ** 30),
      vacuum_share: z.number().min(0).max(1).default(0.2),
      small_file_bytes: z
        .number()
        .int()
        .min(1)
        .default(32 * 2 ** 20),
      small_file_min_files: z.number().int().min(1).default(100),
      unused_days: z.number().int().min(1).default(30),
    })
    .prefault({}),
});
