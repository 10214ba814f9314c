/**
 * The SQL of every billing view: one text each, in Databricks SQL over Databricks' system tables, run unchanged
 * on the local lakehouse (whose system tables the ledger derives) and on a Databricks warehouse. `{days}` is
 * the only parameter, an integer checked before it is put in.
 */
import { JOB_ID_PATTERN, JOB_TYPE_PATTERN } from '../../../platform/sql/job-tag';

export const PRICED_USAGE = `system.billing.usage u
LEFT JOIN system.billing.list_prices p
  ON u.sku_name = p.sku_name AND u.usage_unit = p.usage_unit
  AND u.usage_end_time > p.price_start_time
  AND (p.price_end_time IS NULL OR u.usage_end_time <= p.price_end_time)`;

/** Seconds from `a` to `b` (fractional locally, whole seconds on Databricks: billing windows are hours). */
const secs = (a: string, b: string) => `(unix_timestamp(${b}) - unix_timestamp(${a}))`;
const overlap = (s: string, e: string, ws: string, we: string) =>
  `(LEAST(unix_timestamp(${e}), unix_timestamp(${we})) - GREATEST(unix_timestamp(${s}), unix_timestamp(${ws})))`;

/**
 * Cost per job, from the statements Lakeward tagged with the job id (system.query.history) and the warehouse
 * usage they ran in (system.billing.usage, per warehouse and usage window; system.compute.warehouse_events for
 * the warehouse's uptime in each window):
 * - a job's busy time on a warehouse is the union of its statements' [start_time, end_time) (statements of one job
 *   running side by side count once); statements without a tag count together as one more user of the warehouse;
 * - in each usage window a job gets window DBUs × its busy seconds in the window ÷ the larger of the warehouse's
 *   uptime in the window and the sum of every user's busy seconds there, so jobs never share out more than the
 *   window cost, and a job alone on a warehouse pays busy seconds × the window's DBU rate (what the local ledger
 *   bills it); idle time stays unallocated.
 * The same text runs on Databricks (tags added by the adapter) and locally (query history derived from the spans).
 */
const JOB_COSTS = `WITH statements AS (
  SELECT q.compute.warehouse_id AS warehouse_id,
    regexp_extract(q.statement_text, '${JOB_ID_PATTERN}', 1) AS job_id,
    NULLIF(regexp_extract(q.statement_text, '${JOB_TYPE_PATTERN}', 1), '') AS job_type,
    q.start_time, q.end_time
  FROM system.query.history q
  WHERE q.compute.warehouse_id IS NOT NULL AND q.end_time > q.start_time
    AND q.end_time >= date_sub(current_date(), {days})
),
reach AS (
  SELECT s.warehouse_id, s.job_id, s.job_type, s.start_time, s.end_time,
    MAX(s.end_time) OVER (PARTITION BY s.warehouse_id, s.job_id ORDER BY s.start_time, s.end_time
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_end
  FROM statements s
),
islands AS (
  SELECT r.warehouse_id, r.job_id, r.job_type, r.start_time, r.end_time,
    SUM(CASE WHEN r.prev_end IS NULL OR r.start_time > r.prev_end THEN 1 ELSE 0 END)
      OVER (PARTITION BY r.warehouse_id, r.job_id ORDER BY r.start_time, r.end_time
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS island
  FROM reach r
),
busy AS (
  SELECT i.warehouse_id, i.job_id, MAX(i.job_type) AS job_type, MIN(i.start_time) AS busy_start,
    MAX(i.end_time) AS busy_end
  FROM islands i
  GROUP BY i.warehouse_id, i.job_id, i.island
),
windows AS (
  SELECT u.usage_metadata.warehouse_id AS warehouse_id, u.usage_start_time AS window_start,
    u.usage_end_time AS window_end, CAST(SUM(u.usage_quantity) AS DOUBLE) AS dbus,
    CAST(SUM(u.usage_quantity * COALESCE(p.pricing.default, 0)) AS DOUBLE) AS cost
  FROM ${PRICED_USAGE}
  WHERE u.usage_unit = 'DBU' AND u.usage_metadata.warehouse_id IS NOT NULL
    AND u.usage_date >= date_sub(current_date(), {days})
  GROUP BY u.usage_metadata.warehouse_id, u.usage_start_time, u.usage_end_time
),
runs AS (
  SELECT e.warehouse_id, e.event_type, e.event_time AS run_start,
    LEAD(e.event_time) OVER (PARTITION BY e.warehouse_id ORDER BY e.event_time) AS run_end
  FROM system.compute.warehouse_events e
),
uptime AS (
  SELECT w.warehouse_id, w.window_start, w.window_end,
    SUM(${overlap('r.run_start', 'COALESCE(r.run_end, w.window_end)', 'w.window_start', 'w.window_end')}) AS up_seconds
  FROM windows w JOIN runs r ON r.warehouse_id = w.warehouse_id
    AND r.event_type IN ('RUNNING', 'SCALED_UP', 'SCALED_DOWN')
    AND r.run_start < w.window_end AND COALESCE(r.run_end, w.window_end) > w.window_start
  GROUP BY w.warehouse_id, w.window_start, w.window_end
),
shares AS (
  SELECT w.warehouse_id, w.window_start, w.window_end, w.dbus, w.cost, b.job_id, MAX(b.job_type) AS job_type,
    SUM(${overlap('b.busy_start', 'b.busy_end', 'w.window_start', 'w.window_end')}) AS busy_seconds
  FROM windows w JOIN busy b ON b.warehouse_id = w.warehouse_id
    AND b.busy_start < w.window_end AND b.busy_end > w.window_start
  GROUP BY w.warehouse_id, w.window_start, w.window_end, w.dbus, w.cost, b.job_id
),
allocated AS (
  SELECT s.warehouse_id, s.window_start, s.window_end, s.dbus, s.cost, s.job_id, s.job_type, s.busy_seconds,
    GREATEST(COALESCE(t.up_seconds, ${secs('s.window_start', 's.window_end')}),
      SUM(s.busy_seconds) OVER (PARTITION BY s.warehouse_id, s.window_start, s.window_end)) AS basis_seconds
  FROM shares s LEFT JOIN uptime t ON t.warehouse_id = s.warehouse_id AND t.window_start = s.window_start
    AND t.window_end = s.window_end
)
SELECT a.job_id, MAX(a.job_type) AS job_type, a.warehouse_id,
  CAST(SUM(a.dbus * a.busy_seconds / a.basis_seconds) AS DOUBLE) AS dbus,
  CAST(SUM(a.cost * a.busy_seconds / a.basis_seconds) AS DOUBLE) AS cost,
  CAST(SUM(a.busy_seconds) AS DOUBLE) AS busy_seconds,
  CAST(MIN(a.window_start) AS STRING) AS first_usage, CAST(MAX(a.window_end) AS STRING) AS last_usage
FROM allocated a
WHERE a.job_id <> '' AND a.basis_seconds > 0
GROUP BY a.job_id, a.warehouse_id
ORDER BY cost DESC, job_id`;

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
  'job-costs': JOB_COSTS,
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
  // 0 (today only) is for internal windows such as a budget's month on its first day; the API asks for ≥ 1.
  if (!Number.isInteger(days) || days < 0 || days > 3660) throw new RangeError('days must be an integer 0…3660');
  return BILLING_VIEWS[view].replaceAll('{days}', String(days));
}

const r6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** billing's by_job from the job-costs view's rows (per job and warehouse, money to 6 decimals). */
export function jobCostsByJob(rows: Record<string, unknown>[]) {
  return rows
    .map((r) => ({
      job_id: String(r.job_id),
      job_type: r.job_type == null ? null : String(r.job_type),
      warehouse_id: r.warehouse_id == null ? null : String(r.warehouse_id),
      dbus: r6(Number(r.dbus)),
      cost: r6(Number(r.cost)),
    }))
    .sort((a, b) => a.job_id.localeCompare(b.job_id) || String(a.warehouse_id).localeCompare(String(b.warehouse_id)));
}

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
