import { bigint, bigserial, date, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Usage facts: per job activity, the span it held a warehouse (first cluster taken → last released) and how
 * long it actually ran queries in it. The usage ledger allocates warehouse uptime to jobs from these rows.
 */
export const finopsJobSpans = pgTable(
  'finops_job_spans',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    /** `<workflow id>/<activity id>/<attempt>`: a retried activity records its own span, a replay none twice. */
    spanKey: text('span_key').notNull(),
    jobId: text('job_id').notNull(),
    jobType: text('job_type').notNull(),
    warehouseId: text('warehouse_id').notNull(),
    startedAt: tsz('started_at').notNull(),
    endedAt: tsz('ended_at').notNull(),
    busyMs: bigint('busy_ms', { mode: 'number' }).notNull(),
    runAs: text('run_as'),
  },
  (t) => [
    uniqueIndex('finops_job_spans_key').on(t.spanKey, t.warehouseId),
    index('finops_job_spans_by_warehouse').on(t.warehouseId, t.startedAt),
  ],
);

/** A daily storage snapshot per table: exact bytes of the table's current files (storage metrics). */
export const finopsStorageSnapshots = pgTable(
  'finops_storage_snapshots',
  {
    usageDate: date('usage_date', { mode: 'string' }).notNull(),
    tableName: text('table_name').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    recordedAt: tsz('recorded_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.usageDate, t.tableName] })],
);

/** List prices by SKU from the time each was first seen: a price change adds a row, history keeps its price. */
export const finopsListPrices = pgTable(
  'finops_list_prices',
  {
    skuName: text('sku_name').notNull(),
    priceStartTime: tsz('price_start_time').notNull(),
    usageUnit: text('usage_unit').notNull(),
    /** Decimal text (exact). */
    priceUsd: text('price_usd').notNull(),
  },
  (t) => [primaryKey({ columns: [t.skuName, t.priceStartTime] })],
);
