import {
  CLUSTER_SIZES,
  type ClusterSize,
  type WarehouseEdit,
  type WarehouseKind,
  type WarehouseSpec,
} from '../../../schemas/warehouses';

export type { WarehouseSpec };

export const DEFAULT_AUTO_STOP_MINS = 120;
export const MAX_CLUSTERS = 30;

export function kindOf(s: { warehouseType: string; enableServerlessCompute: boolean }): WarehouseKind {
  if (s.enableServerlessCompute) return 'Serverless';
  return s.warehouseType === 'CLASSIC' ? 'Classic' : 'Pro';
}

/**
 * Applies a create or edit body to `base` (defaults for a create) and names every field Databricks would
 * refuse: `{ spec }` or `{ problems: [{path, message}] }` (the route answers 422 with them).
 */
export function applyEdit(
  base: WarehouseSpec | null,
  edit: WarehouseEdit,
): { spec: WarehouseSpec; problems: { path: string; message: string }[] } {
  const problems: { path: string; message: string }[] = [];
  const size = edit.cluster_size ?? base?.clusterSize ?? 'Small';
  if (!(CLUSTER_SIZES as readonly string[]).includes(size))
    problems.push({ path: 'body.cluster_size', message: `must be one of ${CLUSTER_SIZES.join(', ')}` });
  let warehouseType = edit.warehouse_type ?? base?.warehouseType ?? 'PRO';
  let serverless = edit.enable_serverless_compute ?? base?.enableServerlessCompute ?? false;
  if (edit.type) {
    warehouseType = edit.type === 'Classic' ? 'CLASSIC' : 'PRO';
    serverless = edit.type === 'Serverless';
  }
  if (serverless && warehouseType !== 'PRO')
    problems.push({ path: 'body.enable_serverless_compute', message: 'serverless needs warehouse_type PRO' });
  const spec: WarehouseSpec = {
    name: edit.name ?? base?.name ?? '',
    clusterSize: size as ClusterSize,
    minNumClusters: edit.min_num_clusters ?? base?.minNumClusters ?? 1,
    maxNumClusters: edit.max_num_clusters ?? base?.maxNumClusters ?? 1,
    autoStopMins: edit.auto_stop_mins ?? base?.autoStopMins ?? DEFAULT_AUTO_STOP_MINS,
    warehouseType,
    enableServerlessCompute: serverless,
    enablePhoton: edit.enable_photon ?? base?.enablePhoton ?? true,
    channel: edit.channel?.name ?? base?.channel ?? 'CHANNEL_NAME_CURRENT',
    tags: edit.tags?.custom_tags ?? base?.tags ?? [],
  };
  if (spec.minNumClusters < 1 || spec.minNumClusters > MAX_CLUSTERS)
    problems.push({ path: 'body.min_num_clusters', message: `must be between 1 and ${MAX_CLUSTERS}` });
  if (spec.maxNumClusters < 1 || spec.maxNumClusters > MAX_CLUSTERS)
    problems.push({ path: 'body.max_num_clusters', message: `must be between 1 and ${MAX_CLUSTERS}` });
  else if (spec.maxNumClusters < spec.minNumClusters)
    problems.push({ path: 'body.max_num_clusters', message: 'must be at least min_num_clusters' });
  if (spec.autoStopMins !== 0 && spec.autoStopMins < 10)
    problems.push({ path: 'body.auto_stop_mins', message: 'must be 0 (never stop) or at least 10' });
  return { spec, problems };
}
