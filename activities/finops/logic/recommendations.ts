import { createHash } from 'node:crypto';
import { CLUSTER_SIZES, DBU_PER_HOUR, type ClusterSize } from '../../warehouses/logic/sizes';

/**
 * Cost recommendations as pure analysers over recorded facts (ledger cost, warehouse settings, storage metrics,
 * read and sync times). Each finding has a stable id = hash(type, subject), evidence naming its sources, monthly
 * savings from the ledger or the storage price (null where none can be stated honestly), confidence and effort.
 */
export type RecommendationType = 'idle_warehouse' | 'oversized_warehouse' | 'vacuum' | 'small_files' | 'unused_clone';

export interface Recommendation {
  id: string;
  type: RecommendationType;
  subject: string;
  title: string;
  action: Record<string, unknown>;
  evidence: { fact: string; value: unknown; source: string }[];
  savings_usd_month: number | null;
  benefit: string;
  confidence: 'high' | 'medium' | 'low';
  effort: 'one-click' | 'auto' | 'requires-config-change';
}

export const RECOMMENDATION_THRESHOLDS = {
  idle_share: 0.5,
  max_auto_stop_mins: 60,
  target_auto_stop_mins: 10,
  vacuum_bytes: 2 ** 30,
  vacuum_share: 0.2,
  small_file_bytes: 32 * 2 ** 20,
  small_file_min_files: 100,
  unused_days: 30,
};
export type Thresholds = typeof RECOMMENDATION_THRESHOLDS;

const DAY = 86_400_000;
const MONTH_PER_WEEK = 30 / 7;
const r2 = (n: number) => Math.round(n * 100) / 100;

export function recommendationId(type: RecommendationType, subject: string): string {
  return createHash('sha256').update(`${type}\u0000${subject}`).digest('hex').slice(0, 24);
}

/** A warehouse over the last 7 days, from the ledger (system.billing.usage) and its settings. */
export interface WarehouseWeek {
  warehouse_id: string;
  cluster_size: ClusterSize;
  auto_stop_mins: number;
  uptime_seconds: number;
  idle_seconds: number;
  cost_usd: number;
  idle_cost_usd: number;
  /** Most queries that ran at once, from the engine's pool spans. */
  peak_concurrency: number;
}

export function idleWarehouse(w: WarehouseWeek, t: Thresholds = RECOMMENDATION_THRESHOLDS): Recommendation | null {
  const share = w.uptime_seconds > 0 ? w.idle_seconds / w.uptime_seconds : 0;
  const badStop = w.auto_stop_mins === 0 || w.auto_stop_mins > t.max_auto_stop_mins;
  if (share < t.idle_share && !badStop) return null;
  return {
    id: recommendationId('idle_warehouse', w.warehouse_id),
    type: 'idle_warehouse',
    subject: w.warehouse_id,
    title: `Stop warehouse ${w.warehouse_id} after ${t.target_auto_stop_mins} idle minutes`,
    action: { patch: { auto_stop_mins: t.target_auto_stop_mins } },
    evidence: [
      { fact: 'idle_share_7d', value: r2(share), source: 'system.billing.usage (idle rows)' },
      { fact: 'auto_stop_mins', value: w.auto_stop_mins, source: 'warehouse settings' },
    ],
    savings_usd_month: r2(w.idle_cost_usd * MONTH_PER_WEEK),
    benefit: 'less idle uptime billed',
    confidence: share >= t.idle_share ? 'high' : 'medium',
    effort: 'one-click',
  };
}

export function oversizedWarehouse(w: WarehouseWeek): Recommendation | null {
  const step = CLUSTER_SIZES.indexOf(w.cluster_size);
  if (w.peak_concurrency > 1 || w.uptime_seconds === 0 || step <= 0) return null;
  const down = CLUSTER_SIZES[step - 1];
  const saved = 1 - DBU_PER_HOUR[down] / DBU_PER_HOUR[w.cluster_size];
  return {
    id: recommendationId('oversized_warehouse', w.warehouse_id),
    type: 'oversized_warehouse',
    subject: w.warehouse_id,
    title: `Size warehouse ${w.warehouse_id} down to ${down}`,
    action: { patch: { cluster_size: down } },
    evidence: [
      { fact: 'peak_concurrency_7d', value: w.peak_concurrency, source: 'warehouse pool spans' },
      { fact: 'cluster_size', value: w.cluster_size, source: 'warehouse settings' },
    ],
    savings_usd_month: r2(w.cost_usd * saved * MONTH_PER_WEEK),
    benefit: `DBU rate ${DBU_PER_HOUR[w.cluster_size]} → ${DBU_PER_HOUR[down]} per hour`,
    confidence: 'medium',
    effort: 'one-click',
  };
}

/** A table's storage facts (storage metrics). */
export interface TableStorage {
  table: string;
  total_bytes: number;
  vacuumable_bytes: number;
  file_count: number;
  current_bytes: number;
}

export function vacuum(s: TableStorage, pricePerGb: number, t = RECOMMENDATION_THRESHOLDS): Recommendation | null {
  const share = s.total_bytes > 0 ? s.vacuumable_bytes / s.total_bytes : 0;
  if (s.vacuumable_bytes < t.vacuum_bytes && (share < t.vacuum_share || s.vacuumable_bytes === 0)) return null;
  return {
    id: recommendationId('vacuum', s.table),
    type: 'vacuum',
    subject: s.table,
    title: `VACUUM ${s.table}`,
    action: { sql: 'VACUUM' },
    evidence: [
      { fact: 'vacuumable_bytes', value: s.vacuumable_bytes, source: 'storage metrics' },
      { fact: 'vacuumable_share', value: r2(share), source: 'storage metrics' },
    ],
    savings_usd_month: r2((s.vacuumable_bytes / 2 ** 30) * pricePerGb),
    benefit: 'files no version needs are removed',
    confidence: 'high',
    effort: 'one-click',
  };
}

export function smallFiles(s: TableStorage, t = RECOMMENDATION_THRESHOLDS): Recommendation | null {
  const avg = s.file_count > 0 ? s.current_bytes / s.file_count : Infinity;
  if (s.file_count < t.small_file_min_files || avg >= t.small_file_bytes) return null;
  return {
    id: recommendationId('small_files', s.table),
    type: 'small_files',
    subject: s.table,
    title: `OPTIMIZE ${s.table}`,
    action: { sql: 'OPTIMIZE' },
    evidence: [
      { fact: 'file_count', value: s.file_count, source: 'storage metrics' },
      { fact: 'average_file_bytes', value: Math.round(avg), source: 'storage metrics' },
    ],
    savings_usd_month: null,
    benefit: 'fewer, larger files: faster scans (no saving in USD is claimed)',
    confidence: 'medium',
    effort: 'one-click',
  };
}

/** A deep clone with the last time it was read and synced. */
export interface CloneUse {
  table: string;
  bytes: number;
  last_read: Date | null;
  last_sync: Date | null;
  created: Date;
}

export function unusedClone(c: CloneUse, now: Date, pricePerGb: number, t = RECOMMENDATION_THRESHOLDS) {
  const last = Math.max(c.created.getTime(), c.last_read?.getTime() ?? 0, c.last_sync?.getTime() ?? 0);
  const idleDays = (now.getTime() - last) / DAY;
  if (idleDays < t.unused_days) return null;
  const rec: Recommendation = {
    id: recommendationId('unused_clone', c.table),
    type: 'unused_clone',
    subject: c.table,
    title: `Drop the unused clone ${c.table}`,
    action: { drop: true, confirm: true },
    evidence: [
      { fact: 'days_unused', value: Math.floor(idleDays), source: 'query history and sync runs' },
      { fact: 'bytes', value: c.bytes, source: 'storage metrics' },
    ],
    savings_usd_month: r2((c.bytes / 2 ** 30) * pricePerGb),
    benefit: 'its storage is freed',
    confidence: 'medium',
    // One click, but applying needs `confirm: true`: a drop cannot be undone.
    effort: 'one-click',
  };
  return rec;
}
