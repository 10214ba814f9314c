import type { ControlStatus, EvidenceState } from '../../../schemas/compliance';

/** What one evidence source found: records of any age, those inside its window, and the newest one's time. */
export interface EvidenceFacts {
  count: number;
  freshCount: number;
  newestAt: Date | null;
}

const DAY_MS = 86_400_000;

/** The start of a freshness window of `days` ending at `now`. */
export function windowStart(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/** fresh: a record inside the window; stale: records, all older than it; none: no record at all. */
export function evidenceState(facts: EvidenceFacts): EvidenceState {
  if (facts.freshCount > 0) return 'fresh';
  return facts.count > 0 ? 'stale' : 'none';
}

/**
 * A control is met when every source has fresh evidence, partial when some source has evidence (fresh or stale)
 * but not all are fresh, and a gap when no source has any.
 */
export function controlStatus(states: EvidenceState[]): ControlStatus {
  if (states.length > 0 && states.every((s) => s === 'fresh')) return 'met';
  return states.some((s) => s !== 'none') ? 'partial' : 'gap';
}

export interface ScoreTotals {
  total: number;
  met: number;
  partial: number;
  gap: number;
  /** (met + ½ partial) ÷ controls, 0 to 1, rounded to 4 places; 0 for a framework without controls. */
  score: number;
}

export function scoreOf(statuses: ControlStatus[]): ScoreTotals {
  const met = statuses.filter((s) => s === 'met').length;
  const partial = statuses.filter((s) => s === 'partial').length;
  const total = statuses.length;
  const score = total === 0 ? 0 : Math.round(((met + partial / 2) / total) * 10_000) / 10_000;
  return { total, met, partial, gap: total - met - partial, score };
}

/** One line a reader of the dossier understands: "3 audit rows (clone); 1 in the last 30 days, newest …". */
export function evidenceSummary(what: string, facts: EvidenceFacts, days: number): string {
  if (facts.count === 0) return `No ${what}`;
  const newest = facts.newestAt ? `, newest ${facts.newestAt.toISOString()}` : '';
  const fresh =
    facts.freshCount > 0 ? `${facts.freshCount} in the last ${days} days` : `none in the last ${days} days (stale)`;
  return `${facts.count} ${what}; ${fresh}${newest}`;
}
