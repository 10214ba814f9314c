/**
 * The SQL of every billing view: one text each, in Databricks SQL over Databricks' system tables, run unchanged
 * on the local lakehouse (whose system tables the ledger derives) and on a Databricks warehouse. `{days}` is
 * the only parameter, an integer checked before it is put in.
 */
export const PRICED_USAGE = `system.billing.usage u
LEFT JOIN system.billing.list_prices p
  ON u.sku_name = p.sku_name AND u.usage_unit = p.usage_unit
  AND u.usage_end_time > p.price_start_time
  AND (p.price_end_time IS NULL OR u.usage_end_time <= p.price_end_time)`;

export const BILLING_VIEWS = {
  billing: `SELECT CAST(u.usage_date AS STRING) AS usage_date, u.sku_name, u.billing_origin_product AS product,
  u.usage_metadata.warehouse_id AS warehouse_id, u.usage_metadata.job_id AS job_id,
  u.custom_tags['lakeward_job_type'] AS job_type, u.identity_metadata.run_as AS run_as,
  CAST(SUM(u.usage_quantity) AS DOUBLE) AS dbus,
  CAST(SUM(u.usage_quantity * COALESCE(p.pricing.default, 0)) AS DOUBLE) AS cost
FROM ${PRICED_USAGE}
WHERE u.usage_date >= date_sub(current_date(), {days})
GROUP BY u.usage_date, u.sku_name, u.billing_origin_product, u.usage_metadata.warehouse_id, u.usage_metadata.job_id,
  u.custom_tags['lakeward_job_type'], u.identity_metadata.run_as
ORDER BY usage_date, sku_name, warehouse_id, job_id`,
  'job-costs': `SELECT u.usage_metadata.job_id AS job_id, u.custom_tags['lakeward_job_type'] AS job_type,
  u.usage_metadata.warehouse_id AS warehouse_id,
  CAST(SUM(u.usage_quantity) AS DOUBLE) AS dbus,
  CAST(SUM(u.usage_quantity * COALESCE(p.pricing.default, 0)) AS DOUBLE) AS cost,
  CAST(MIN(u.usage_start_time) AS STRING) AS first_usage, CAST(MAX(u.usage_end_time) AS STRING) AS last_usage
FROM ${PRICED_USAGE}
WHERE u.usage_date >= date_sub(current_date(), {days}) AND u.usage_metadata.job_id IS NOT NULL
GROUP BY u.usage_metadata.job_id, u.custom_tags['lakeward_job_type'], u.usage_metadata.warehouse_id
ORDER BY cost DESC, job_id`,
  warehouses: `SELECT w.warehouse_id, w.warehouse_name, w.warehouse_type, w.warehouse_size, w.min_clusters, w.max_clusters,
  w.auto_stop_minutes, CAST(w.change_time AS STRING) AS change_time, CAST(w.delete_time AS STRING) AS delete_time
FROM system.compute.warehouses w
ORDER BY w.warehouse_name, w.change_time`,
  'warehouse-events': `SELECT e.warehouse_id, e.event_type, e.cluster_count, CAST(e.event_time AS STRING) AS event_time
FROM system.compute.warehouse_events e
WHERE e.event_time >= date_sub(current_date(), {days})
ORDER BY e.event_time, e.warehouse_id`,
  'query-costs': `SELECT u.usage_metadata.warehouse_id AS warehouse_id,
  CAST(SUM(CASE WHEN u.usage_metadata.job_id IS NULL THEN u.usage_quantity ELSE 0 END) AS DOUBLE) AS idle_dbus,
  CAST(SUM(CASE WHEN u.usage_metadata.job_id IS NOT NULL THEN u.usage_quantity ELSE 0 END) AS DOUBLE) AS busy_dbus,
  CAST(SUM(u.usage_quantity * COALESCE(p.pricing.default, 0)) AS DOUBLE) AS cost
FROM ${PRICED_USAGE}
WHERE u.usage_date >= date_sub(current_date(), {days})
GROUP BY u.usage_metadata.warehouse_id
ORDER BY warehouse_id`,
  storage: `SELECT CAST(u.usage_date AS STRING) AS usage_date, u.custom_tags['lakeward_table'] AS table_name,
  CAST(SUM(u.usage_quantity) AS DOUBLE) AS gb_months,
  CAST(SUM(u.usage_quantity * COALESCE(p.pricing.default, 0)) AS DOUBLE) AS cost
FROM ${PRICED_USAGE}
WHERE u.usage_unit = 'GB_MONTH' AND u.usage_date >= date_sub(current_date(), {days})
GROUP BY u.usage_date, u.custom_tags['lakeward_table']
ORDER BY usage_date, table_name`,
  'system-status': `SELECT 'system.billing.usage' AS table_name, COUNT(*) AS row_count FROM system.billing.usage
UNION ALL SELECT 'system.billing.list_prices', COUNT(*) FROM system.billing.list_prices
UNION ALL SELECT 'system.compute.warehouses', COUNT(*) FROM system.compute.warehouses
UNION ALL SELECT 'system.compute.warehouse_events', COUNT(*) FROM system.compute.warehouse_events`,
} as const;

export type BillingView = keyof typeof BILLING_VIEWS;

/** The view's SQL with its window put in. */
export function viewSql(view: BillingView, days: number): string {
  if (!Number.isInteger(days) || days < 1 || days > 3660) throw new RangeError('days must be an integer 1…3660');
  return BILLING_VIEWS[view].replaceAll('{days}', String(days));
}

const r6 = (n: number) => Math.round(n * 1e6) / 1e6;

export interface BillingLine {
  usage_date: string;
  sku_name: string;
  product: string;
  warehouse_id: string | null;
  job_id: string | null;
  job_type: string | null;
  run_as: string | null;
  dbus: number;
  cost: number;
}

/** Totals and breakdowns of the billing view's rows (money and DBUs to 6 decimals). */
export function summariseBilling(lines: BillingLine[]) {
  const group = <K extends string>(key: (l: BillingLine) => string, name: K) => {
    const m = new Map<string, { dbus: number; cost: number }>();
    for (const l of lines) {
      const k = key(l);
      const g = m.get(k) ?? { dbus: 0, cost: 0 };
      g.dbus += l.dbus;
      g.cost += l.cost;
      m.set(k, g);
    }
    return [...m]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([k, g]) =>
          ({ [name]: k, dbus: r6(g.dbus), cost: r6(g.cost) }) as { [P in K]: string } & { dbus: number; cost: number },
      );
  };
  const jobs = new Map<
    string,
    { job_id: string; job_type: string | null; warehouse_id: string | null; dbus: number; cost: number }
  >();
  for (const l of lines.filter((x) => x.job_id)) {
    const k = `${l.job_id}|${l.warehouse_id}`;
    const j = jobs.get(k) ?? {
      job_id: l.job_id!,
      job_type: l.job_type,
      warehouse_id: l.warehouse_id,
      dbus: 0,
      cost: 0,
    };
    j.dbus += l.dbus;
    j.cost += l.cost;
    jobs.set(k, j);
  }
  return {
    totals: {
      dbus: r6(lines.reduce((a, l) => a + l.dbus, 0)),
      cost: r6(lines.reduce((a, l) => a + l.cost, 0)),
    },
    daily_trend: group((l) => l.usage_date, 'date'),
    by_sku: group((l) => l.sku_name, 'sku_name'),
    by_product: group((l) => l.product, 'product'),
    by_warehouse: group((l) => l.warehouse_id ?? '', 'warehouse_id').filter((w) => w.warehouse_id !== ''),
    by_user: group((l) => l.run_as ?? 'unknown', 'user'),
    by_job: [...jobs.values()]
      .sort((a, b) => a.job_id.localeCompare(b.job_id))
      .map((j) => ({ ...j, dbus: r6(j.dbus), cost: r6(j.cost) })),
  };
}
