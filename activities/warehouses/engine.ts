import os from 'node:os';
import { closePool, existingPool, openPool, type EnginePool } from '../../platform/local/warehouse-pool';
import type { WarehouseRow } from '../../store/warehouses/repo';
import { engineSettings, type ClusterSize } from './logic/sizes';

/** The local engine pool a warehouse row describes: max_num_clusters DuckDB instances of its size. */
export function poolFor(row: WarehouseRow): EnginePool {
  const machine = { cpus: os.availableParallelism(), memoryBytes: os.totalmem() };
  const { threads, memoryLimitMb } = engineSettings(row.clusterSize as ClusterSize, machine);
  return openPool(row.id, { clusters: row.maxNumClusters, threads, memoryLimitMb });
}

export function stopPool(warehouseId: string): void {
  closePool(warehouseId);
}

/** Whether the warehouse's pool in this process is running or queueing a query, and when it was last used. */
export function poolActivity(warehouseId: string): { busy: boolean; lastUsedAtMs: number | null } {
  const pool = existingPool(warehouseId);
  if (!pool) return { busy: false, lastUsedAtMs: null };
  return { busy: pool.running + pool.queued > 0, lastUsedAtMs: pool.lastUsedAt };
}
