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
});
