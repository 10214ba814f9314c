import type { WarehouseSpec } from '../../../schemas/warehouses';

/** A warehouse's settings as the SQL Warehouses API takes them (create and edit bodies, Databricks' field names). */
export function warehouseRequestOf(s: Pick<WarehouseSpec, keyof WarehouseSpec>) {
  return {
    name: s.name,
    cluster_size: s.clusterSize,
    min_num_clusters: s.minNumClusters,
    max_num_clusters: s.maxNumClusters,
    auto_stop_mins: s.autoStopMins,
    warehouse_type: s.warehouseType,
    enable_serverless_compute: s.enableServerlessCompute,
    enable_photon: s.enablePhoton,
    channel: { name: s.channel },
    tags: { custom_tags: s.tags },
  };
}
