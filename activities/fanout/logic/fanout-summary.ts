import type { CloneSummary } from '../../../workflows/clone/definitions';
import type { DataSyncMode } from '../../../workflows/fanout/definitions';
import { COUNTER_KEYS } from '../../clone/logic/totals';

/** How one target's child clone ended. */
export interface ChildOutcome {
  label: string;
  jobId: string;
  destinationCatalog: string;
  /** The child's summary, or null when its workflow failed before returning one. */
  summary: CloneSummary | null;
  /** Set when the child failed without a summary (the end of its failure chain). */
  error: string | null;
  /** Set when the child was cancelled with the fan-out. */
  cancelled?: boolean;
}

export type PerTarget = {
  job_id: string;
  destination_catalog: string;
  status: string;
  error?: string;
} & Partial<Omit<CloneSummary, 'per_target' | 'jobId' | 'status' | 'error'>>;

export type FanoutSummary = CloneSummary & {
  mode: 'fanout';
  target_count: number;
  succeeded_targets: number;
  failed_targets: number;
  target_status: 'success' | 'partial' | 'failed';
  per_target: Record<string, PerTarget>;
};

/** The status a child clone job's row ends with. */
export function childStatus(o: ChildOutcome): CloneSummary['status'] {
  if (o.cancelled) return 'cancelled';
  return o.summary?.status ?? 'failed';
}

/**
 * The fan-out run summary: counters summed over the targets; per_target keyed by target label (a label used
 * twice gets `#n`); a target succeeded when its clone completed; target_status success (all), failed (none)
 * or partial. The job fails when any target failed, naming each failed target.
 */
export function fanoutSummary(jobId: string, children: ChildOutcome[], durationSeconds: number): FanoutSummary {
  const per: Record<string, PerTarget> = {};
  const sums = Object.fromEntries(COUNTER_KEYS.map((k) => [k, 0])) as Record<(typeof COUNTER_KEYS)[number], number>;
  const formats: Record<string, number> = {};
  const warnings: string[] = [];
  const failures: string[] = [];
  let ok = 0;
  let cancelled = false;
  for (const c of children) {
    let key = c.label;
    for (let n = 2; key in per; n++) key = `${c.label}#${n}`;
    const status = childStatus(c);
    const error = c.summary?.error ?? c.error ?? undefined;
    if (status === 'completed') ok++;
    else if (status === 'cancelled') cancelled = true;
    else failures.push(`${key}: ${error ?? status}`);
    if (c.summary) {
      for (const k of COUNTER_KEYS) sums[k] += Number(c.summary[k] ?? 0);
      for (const [f, n] of Object.entries(c.summary.formats ?? {})) formats[f] = (formats[f] ?? 0) + n;
      for (const w of c.summary.warnings ?? []) if (warnings.length < 200) warnings.push(`${key}: ${w}`);
    }
    const { jobId: _j, per_target: _p, status: _s, error: _e, plan: _plan, ...counts } = c.summary ?? {};
    per[key] = {
      ...counts,
      job_id: c.jobId,
      destination_catalog: c.destinationCatalog,
      status,
      ...(error ? { error } : {}),
    };
  }
  const n = children.length;
  const status: CloneSummary['status'] = cancelled ? 'cancelled' : failures.length ? 'failed' : 'completed';
  return {
    jobId,
    ...sums,
    formats,
    warnings,
    status,
    ...(failures.length ? { error: failures.join('; ') } : {}),
    mode: 'fanout',
    duration_seconds: durationSeconds,
    target_count: n,
    succeeded_targets: ok,
    failed_targets: n - ok,
    target_status: ok === n ? 'success' : ok === 0 ? 'failed' : 'partial',
    per_target: per,
  };
}

/**
 * The clone load type a target's data sync mode asks for: incremental takes the incremental path, force_full
 * re-clones every table (FULL, whatever the request said); snapshot_once (and no saved mode) keeps the request's.
 */
export function loadTypeFor<T extends string>(mode: DataSyncMode | null, requested: T): T | 'INCREMENTAL' | 'FULL' {
  if (mode === 'incremental') return 'INCREMENTAL';
  if (mode === 'force_full') return 'FULL';
  return requested;
}
