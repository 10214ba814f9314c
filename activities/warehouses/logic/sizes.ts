/**
 * SQL warehouse sizes as Databricks names them, with the DBUs one cluster of that size consumes per hour
 * (the published Databricks SQL size table; see the README's "Warehouses and cost") and the local engine
 * a cluster of that size gets. Pure data: the ledger, the pool and validation all read it.
 */
import { CLUSTER_SIZES, type ClusterSize } from '../../../schemas/warehouses';

export { CLUSTER_SIZES, type ClusterSize };

/** DBU per hour of one running cluster, by size. */
export const DBU_PER_HOUR: Record<ClusterSize, number> = {
  '2X-Small': 4,
  'X-Small': 6,
  Small: 12,
  Medium: 24,
  Large: 40,
  'X-Large': 80,
  '2X-Large': 144,
  '3X-Large': 272,
  '4X-Large': 528,
};

/** The DuckDB settings of one local cluster of `size`, capped by what the machine has. */
export function engineSettings(
  size: ClusterSize,
  machine: { cpus: number; memoryBytes: number },
): { threads: number; memoryLimitMb: number } {
  const step = CLUSTER_SIZES.indexOf(size); // 0 … 8
  const threads = Math.max(1, Math.min(machine.cpus, 2 ** Math.floor(step / 2)));
  const wantedMb = 512 * 2 ** step;
  const capMb = Math.max(256, Math.floor((machine.memoryBytes / 1024 / 1024) * 0.5));
  return { threads, memoryLimitMb: Math.min(wantedMb, capMb) };
}

/** Rounds money and DBU figures to 6 decimals (what every billing figure carries). */
export function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
