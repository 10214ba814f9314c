import { createHash } from 'node:crypto';
import { DBU_PER_HOUR, round6, type ClusterSize } from '../../warehouses/logic/sizes';

/** Facts the ledger is derived from (all times epoch ms). */
export interface LedgerFacts {
  warehouses: { id: string; name: string; clusterSize: string; skuName: string }[];
  events: { warehouseId: string; eventType: string; clusterCount: number; at: number }[];
  spans: { jobId: string; jobType: string; warehouseId: string; start: number; end: number; runAs: string | null }[];
  /** A warehouse still running is derived up to here (an hour boundary: every row derived is final). */
  cutoff: number;
}

/** One row of system.billing.usage, as Databricks names its columns. */
export interface UsageRow {
  record_id: string;
  sku_name: string;
  usage_start_time: number;
  usage_end_time: number;
  usage_date: string;
  usage_unit: 'DBU' | 'GB_MONTH';
  usage_quantity: number;
  warehouse_id: string;
  job_id: string | null;
  job_type: string | null;
  run_as: string | null;
  /** Seconds of warehouse uptime this row stands for (busy seconds of its job, or idle seconds). */
  seconds: number;
  /** Storage rows: the table whose bytes they bill. */
  table_name?: string;
}

const HOUR = 3_600_000;

/** record_id from the facts a row stands for: the same facts always give the same id. */
export function recordId(parts: (string | number)[]): string {
  const h = createHash('sha256').update(parts.join('|')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Intervals a warehouse ran (RUNNING until the next STOPPING/STOPPED/DELETING/DELETED), with its cluster count. */
export function uptimeIntervals(
  events: LedgerFacts['events'],
  cutoff: number,
): { start: number; end: number; clusters: number }[] {
  const out: { start: number; end: number; clusters: number }[] = [];
  let open: { start: number; clusters: number } | null = null;
  for (const e of [...events].sort((a, b) => a.at - b.at)) {
    if (e.eventType === 'RUNNING') {
      if (open) out.push({ ...open, end: e.at });
      open = { start: e.at, clusters: Math.max(1, e.clusterCount) };
    } else if (open && e.eventType !== 'STARTING') {
      out.push({ ...open, end: e.at });
      open = null;
    }
  }
  // A warehouse still running is billed up to the cutoff only (an hour boundary), so every row derived is final.
  if (open) out.push({ ...open, end: cutoff });
  return out.filter((i) => i.end > i.start);
}

/**
 * The usage rows the facts give: each uptime interval cut at clock hours; within each piece, uptime is shared
 * among the jobs holding the warehouse (evenly while several do) and the rest is one idle row. DBUs are
 * seconds × DBU/h of the size × clusters ÷ 3600, so Σ rows of a piece = its uptime × rate exactly.
 */
export function deriveUsage(facts: LedgerFacts): UsageRow[] {
  const rows: UsageRow[] = [];
  for (const w of facts.warehouses) {
    const rate = DBU_PER_HOUR[w.clusterSize as ClusterSize] ?? 0;
    const events = facts.events.filter((e) => e.warehouseId === w.id);
    const spans = facts.spans.filter((s) => s.warehouseId === w.id);
    for (const up of uptimeIntervals(events, facts.cutoff)) {
      for (let h = Math.floor(up.start / HOUR) * HOUR; h < up.end; h += HOUR) {
        const from = Math.max(up.start, h);
        const to = Math.min(up.end, h + HOUR);
        const shares = shareSeconds(spans, from, to);
        const busy = [...shares.values()].reduce((a, s) => a + s.ms, 0);
        const base = { sku_name: w.skuName, usage_start_time: from, usage_end_time: to, warehouse_id: w.id };
        const usage = (ms: number) => round6(((ms / 1000) * rate * up.clusters) / 3600);
        for (const [jobId, s] of [...shares].sort(([a], [b]) => a.localeCompare(b))) {
          rows.push({
            ...base,
            record_id: recordId([w.id, up.start, from, jobId]),
            usage_date: new Date(from).toISOString().slice(0, 10),
            usage_unit: 'DBU',
            usage_quantity: usage(s.ms),
            job_id: jobId,
            job_type: s.jobType,
            run_as: s.runAs,
            seconds: s.ms / 1000,
          });
        }
        const idle = to - from - busy;
        if (idle > 0)
          rows.push({
            ...base,
            record_id: recordId([w.id, up.start, from, 'idle']),
            usage_date: new Date(from).toISOString().slice(0, 10),
            usage_unit: 'DBU',
            usage_quantity: usage(idle),
            job_id: null,
            job_type: null,
            run_as: null,
            seconds: idle / 1000,
          });
      }
    }
  }
  return rows;
}

/** Per job, the ms of [from, to) it held the warehouse; a stretch several jobs held is split evenly among them. */
function shareSeconds(
  spans: LedgerFacts['spans'],
  from: number,
  to: number,
): Map<string, { ms: number; jobType: string; runAs: string | null }> {
  const inside = spans
    .map((s) => ({ ...s, start: Math.max(s.start, from), end: Math.min(s.end, to) }))
    .filter((s) => s.end > s.start);
  const cuts = [...new Set(inside.flatMap((s) => [s.start, s.end]))].sort((a, b) => a - b);
  const out = new Map<string, { ms: number; jobType: string; runAs: string | null }>();
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [a, b] = [cuts[i], cuts[i + 1]];
    const jobs = [...new Set(inside.filter((s) => s.start <= a && s.end >= b).map((s) => s.jobId))];
    for (const jobId of jobs) {
      const s = inside.find((x) => x.jobId === jobId)!;
      const have = out.get(jobId) ?? { ms: 0, jobType: s.jobType, runAs: s.runAs };
      have.ms += (b - a) / jobs.length;
      out.set(jobId, have);
    }
  }
  return out;
}

/** The SKU name of a warehouse, in Databricks' spelling. */
export function skuOf(w: { warehouseType: string; enableServerlessCompute: boolean }): string {
  if (w.enableServerlessCompute) return 'ENTERPRISE_SERVERLESS_SQL_COMPUTE';
  return w.warehouseType === 'CLASSIC' ? 'ENTERPRISE_SQL_COMPUTE' : 'ENTERPRISE_SQL_PRO_COMPUTE';
}

/** Storage usage rows: one per table and day, GB-months = bytes ÷ 2^30 ÷ days in that month. */
export function deriveStorageUsage(snapshots: { usageDate: string; tableName: string; bytes: number }[]): UsageRow[] {
  return snapshots.map((s) => {
    const [y, m] = s.usageDate.split('-').map(Number);
    const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const start = Date.parse(`${s.usageDate}T00:00:00Z`);
    return {
      record_id: recordId(['storage', s.usageDate, s.tableName, s.bytes]),
      sku_name: 'STORAGE',
      usage_start_time: start,
      usage_end_time: start + 24 * HOUR,
      usage_date: s.usageDate,
      usage_unit: 'GB_MONTH' as const,
      usage_quantity: round6(s.bytes / 2 ** 30 / daysInMonth),
      warehouse_id: '',
      job_id: null,
      job_type: null,
      run_as: null,
      seconds: 0,
      table_name: s.tableName,
    };
  });
}
