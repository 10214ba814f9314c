/** The SLA clock of a case in words: "due in 2 d 3 h" or "overdue by 4 h 10 min" (pure; tested by vitest). */
export function slaClock(dueAt: string, now: number): string {
  const ms = Date.parse(dueAt) - now;
  const abs = Math.abs(ms);
  const d = Math.floor(abs / 86_400_000);
  const h = Math.floor((abs % 86_400_000) / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const parts = d > 0 ? [`${d} d`, `${h} h`] : h > 0 ? [`${h} h`, `${m} min`] : [`${m} min`];
  return ms >= 0 ? `due in ${parts.join(' ')}` : `overdue by ${parts.join(' ')}`;
}

export interface RecordRef {
  system: string;
  record_id: string;
}

/**
 * The two records a pair's attribute values belong to: a pair case's records, or a match review's weakest pair
 * (its values are that pair's). Conflict cases carry tied candidate values, not one value per record: null.
 */
export function valueColumns(c: {
  type: string;
  records: RecordRef[];
  details: Record<string, unknown> | null;
}): RecordRef[] | null {
  if (c.type === 'conflict_resolution' || c.type === 'stewardship_request') return null;
  const weakest = c.details?.weakest_pair;
  if (c.type === 'match_review' && Array.isArray(weakest) && weakest.length === 2) return weakest as RecordRef[];
  return c.records.slice(0, 2);
}

/** True when an attribute's values are not all the same (case- and space-insensitive, as a steward reads them). */
export function valuesDiffer(values: unknown[]): boolean {
  const norm = values.map((v) => (v === null || v === undefined ? '' : String(v).trim().toLowerCase()));
  return new Set(norm).size > 1;
}

/** The resolve actions a case type takes (the server's rule; anything else is a 422). */
export const CASE_ACTIONS: Record<string, string[]> = {
  match_review: ['approve_match', 'reject', 'override'],
  suspected_duplicate: ['approve_match', 'reject'],
  negative_match_candidate: ['approve_match', 'reject'],
  conflict_resolution: ['override'],
  stewardship_request: ['override', 'close'],
};

/** The index j / k moves to in a list of `n` (stays inside it). */
export function step(index: number, n: number, key: 'j' | 'k'): number {
  if (n === 0) return 0;
  return key === 'j' ? Math.min(index + 1, n - 1) : Math.max(index - 1, 0);
}
