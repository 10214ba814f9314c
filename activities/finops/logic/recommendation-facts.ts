import { DBU_PER_HOUR, type ClusterSize } from '../../warehouses/logic/sizes';
import type { WarehouseWeek } from './recommendations';
import { PRICED_USAGE } from './views';

/**
 * Per warehouse over the last 7 days, from Databricks' system tables (derived by the usage ledger locally): DBUs,
 * the idle share of them (rows without a job) and their cost. One SQL text for both adapters, like the billing
 * views.
 */
export const WAREHOUSE_WEEK_SQL = `SELECT u.usage_metadata.warehouse_id AS warehouse_id,
  CAST(SUM(u.usage_quantity) AS DOUBLE) AS dbus,
  CAST(SUM(CASE WHEN u.usage_metadata.job_id IS NULL THEN u.usage_quantity ELSE 0 END) AS DOUBLE) AS idle_dbus,
  CAST(SUM(u.usage_quantity * COALESCE(p.pricing.default, 0)) AS DOUBLE) AS cost,
  CAST(SUM(CASE WHEN u.usage_metadata.job_id IS NULL THEN u.usage_quantity * COALESCE(p.pricing.default, 0)
    ELSE 0 END) AS DOUBLE) AS idle_cost
FROM ${PRICED_USAGE}
WHERE u.usage_unit = 'DBU' AND u.usage_metadata.warehouse_id IS NOT NULL
  AND u.usage_date >= date_sub(current_date(), 7)
GROUP BY u.usage_metadata.warehouse_id
ORDER BY warehouse_id`;

export interface WarehouseUsageRow {
  warehouse_id: string;
  dbus: number;
  idle_dbus: number;
  cost: number;
  idle_cost: number;
}

/**
 * A warehouse's week from its settings, its usage row (none: it did not run) and the peak concurrency of the job
 * spans on it. Uptime and idle seconds come back from DBUs through the size's DBU/h rate.
 */
export function warehouseWeek(
  w: { id: string; clusterSize: string; autoStopMins: number },
  usage: WarehouseUsageRow | undefined,
  peak: number,
): WarehouseWeek {
  const size = w.clusterSize as ClusterSize;
  const rate = DBU_PER_HOUR[size] ?? 0;
  const seconds = (dbus: number) => (rate > 0 ? (dbus * 3600) / rate : 0);
  return {
    warehouse_id: w.id,
    cluster_size: size,
    auto_stop_mins: w.autoStopMins,
    uptime_seconds: seconds(Number(usage?.dbus ?? 0)),
    idle_seconds: seconds(Number(usage?.idle_dbus ?? 0)),
    cost_usd: Number(usage?.cost ?? 0),
    idle_cost_usd: Number(usage?.idle_cost ?? 0),
    peak_concurrency: peak,
  };
}
