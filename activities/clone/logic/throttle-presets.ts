/** Throttle presets (spec limits): workers, parallel tables, requests per second (0 = unlimited). */
export type ThrottlePreset = 'low' | 'medium' | 'high' | 'max';

export interface ThrottleLimits {
  max_workers: number;
  parallel_tables: number;
  max_rps: number;
  /** Hard cap on tables started in any 60-second window; 0 = unlimited. */
  tables_per_minute: number;
}

export const THROTTLE_PRESETS: Record<ThrottlePreset, Omit<ThrottleLimits, 'tables_per_minute'>> = {
  low: { max_workers: 2, parallel_tables: 1, max_rps: 2 },
  medium: { max_workers: 4, parallel_tables: 2, max_rps: 5 },
  high: { max_workers: 8, parallel_tables: 4, max_rps: 10 },
  max: { max_workers: 16, parallel_tables: 8, max_rps: 0 },
};
