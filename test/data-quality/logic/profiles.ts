import type { ColumnProfile, Profile } from '../../../activities/data-quality/logic';

/** A column profile with neutral statistics; tests override what matters to them. */
export function col(name: string, type: string, over: Partial<ColumnProfile> = {}): ColumnProfile {
  return {
    name,
    type,
    count: 1000,
    nulls: 0,
    distinct: 1000,
    min: null,
    max: null,
    mean: null,
    stddev: null,
    min_length: null,
    max_length: null,
    avg_length: null,
    histogram: { bins: [] },
    top_values: [],
    ...over,
  };
}

export const FQN = 'main.sales.orders';

/** An orders table: a unique key, a low-cardinality status, a nullable amount, dates, a free-text note. */
export function ordersProfile(): Profile {
  return {
    table_fqn: FQN,
    row_count: 1000,
    columns: [
      col('order_id', 'bigint', { min: 1, max: 1000, mean: 500.5 }),
      col('status', 'string', {
        distinct: 3,
        empty: 0,
        min_length: 4,
        max_length: 9,
        top_values: [
          { value: 'shipped', count: 600 },
          { value: 'open', count: 300 },
          { value: 'cancelled', count: 100 },
        ],
      }),
      col('amount', 'decimal(12,2)', { nulls: 12, distinct: 950, min: '0.50', max: '9999.99', mean: 120.4 }),
      col('ordered_on', 'date', { distinct: 365, min: '2024-01-01', max: '2024-12-31' }),
      col('note', 'string', { nulls: 400, distinct: 590, empty: 10, min_length: 0, max_length: 200 }),
      col('customer_email', 'string', { distinct: 1000, empty: 0, min_length: 6, max_length: 60 }),
    ],
  };
}
