import type { CloneOptions } from '../../../schemas/clone';
import { THROTTLE_PRESETS, type ThrottleLimits, type ThrottlePreset } from './throttle-presets';
import { clockParts, DEFAULT_THROTTLE_TIMEZONE, presetInForce } from './throttle-schedule';

export interface LimitsInForce extends ThrottleLimits {
  /** The preset in force (from a schedule window, else throttle.preset), or null without throttle settings. */
  preset: ThrottlePreset | null;
}

type ThrottleInputs = Pick<CloneOptions, 'max_workers' | 'parallel_tables' | 'max_rps' | 'throttle'>;

/**
 * The limits in force at `now`: the job's own max_workers / parallel_tables / max_rps, replaced by the preset
 * in force (a matching schedule window wins over throttle.preset), then by throttle's custom limits.
 * Called each time a table starts and each time a request is made, so a window change takes effect at once.
 * Windows are read in `timeZone` (the job's `throttleTimezone`), UTC when not given.
 */
export function limitsAt(o: ThrottleInputs, now: Date, timeZone: string = DEFAULT_THROTTLE_TIMEZONE): LimitsInForce {
  const t = o.throttle;
  const base: LimitsInForce = {
    preset: null,
    max_workers: o.max_workers,
    parallel_tables: o.parallel_tables,
    max_rps: o.max_rps,
    tables_per_minute: 0,
  };
  if (!t) return base;
  const preset = presetInForce(t.schedule, clockParts(now, timeZone)) ?? t.preset ?? null;
  const fromPreset = preset ? THROTTLE_PRESETS[preset] : {};
  const custom = Object.fromEntries(
    (['max_workers', 'parallel_tables', 'max_rps', 'tables_per_minute'] as const)
      .filter((k) => t[k] !== undefined)
      .map((k) => [k, t[k]]),
  );
  return { ...base, ...fromPreset, ...custom, preset };
}

/**
 * Milliseconds to wait before another table may start under a tables-per-minute cap, given the start
 * times of earlier tables (ms). 0 when a start is allowed now or there is no cap.
 */
export function delayBeforeNextStart(starts: number[], perMinute: number, now: number): number {
  if (perMinute <= 0) return 0;
  const recent = starts.filter((s) => s > now - 60_000).sort((a, b) => a - b);
  if (recent.length < perMinute) return 0;
  return recent[recent.length - perMinute] + 60_000 - now;
}
