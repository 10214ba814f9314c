import type { Recommendation } from './recommendations';

/**
 * What happens to stored recommendations when a refresh finds (or no longer finds) them, what an apply would
 * run, and why one cannot be applied. Pure: the clock comes in as `now`.
 */
export type RecommendationStatus = 'open' | 'applying' | 'applied' | 'dismissed' | 'snoozed' | 'resolved';

export interface StoredState {
  id: string;
  status: RecommendationStatus;
  suppressedUntil: Date | null;
}

export interface Reconciled {
  /** Found now: upsert the finding with this status. */
  upserts: { rec: Recommendation; status: RecommendationStatus; reopened: boolean }[];
  /** Stored but not found now: mark not found; those listed in `resolve` also turn `resolved`. */
  missing: string[];
  resolve: string[];
}

const suppressed = (s: StoredState, now: Date) =>
  (s.status === 'dismissed' || s.status === 'snoozed') && (!s.suppressedUntil || s.suppressedUntil > now);

/**
 * A refresh's findings against what is stored: a new finding opens; a dismissed or snoozed one stays so until its
 * days are over, then reopens if still found; a resolved one found again reopens; open, applying and applied ones
 * keep their status. Stored open findings no longer found are resolved. Running it twice on the same facts gives
 * the same set.
 */
export function reconcile(stored: StoredState[], found: Recommendation[], now: Date): Reconciled {
  const byId = new Map(stored.map((s) => [s.id, s]));
  const seen = new Set<string>();
  const upserts: Reconciled['upserts'] = [];
  for (const rec of found) {
    if (seen.has(rec.id)) continue;
    seen.add(rec.id);
    const s = byId.get(rec.id);
    if (!s) upserts.push({ rec, status: 'open', reopened: false });
    else if (s.status === 'dismissed' || s.status === 'snoozed')
      upserts.push(
        suppressed(s, now) ? { rec, status: s.status, reopened: false } : { rec, status: 'open', reopened: true },
      );
    else if (s.status === 'resolved') upserts.push({ rec, status: 'open', reopened: true });
    else upserts.push({ rec, status: s.status, reopened: false });
  }
  const missing = stored.filter((s) => !seen.has(s.id));
  return {
    upserts,
    missing: missing.map((s) => s.id),
    resolve: missing.filter((s) => s.status === 'open').map((s) => s.id),
  };
}

/** The status a reader sees: a dismissal or snooze whose days are over shows open again if the finding stands. */
export function effectiveStatus(s: StoredState & { found: boolean }, now: Date): RecommendationStatus {
  if ((s.status === 'dismissed' || s.status === 'snoozed') && s.found && !suppressed(s, now)) return 'open';
  return s.status;
}

export const APPLIABLE_EFFORTS = ['one-click', 'auto'] as const;

/** Why `rec` cannot be applied now (409), or null. Dropping a table also needs `confirm: true` (400). */
export function applyRefusal(
  rec: { id: string; effort: string; action: Record<string, unknown>; subject: string },
  status: RecommendationStatus,
  confirm: boolean,
): { status: 400 | 409; path: string; message: string } | null {
  if (status !== 'open')
    return { status: 409, path: 'status', message: `recommendation ${rec.id} is ${status}; only open ones apply` };
  if (!(APPLIABLE_EFFORTS as readonly string[]).includes(rec.effort))
    return {
      status: 409,
      path: 'effort',
      message: `recommendation ${rec.id} has effort ${rec.effort}; only one-click and auto ones apply`,
    };
  if (rec.action.drop && !confirm)
    return { status: 400, path: 'body.confirm', message: `must be true to drop ${rec.subject}` };
  return null;
}

export interface TableName {
  catalog: string;
  schema: string;
  name: string;
}

/** `a.b.c` → its three parts (a table subject), or null. */
export function tableOf(subject: string): TableName | null {
  const parts = subject.split('.');
  if (parts.length !== 3 || parts.some((p) => !p)) return null;
  return { catalog: parts[0], schema: parts[1], name: parts[2] };
}

const quoted = (t: TableName) => [t.catalog, t.schema, t.name].map((p) => `\`${p.replace(/`/g, '``')}\``).join('.');

export type ApplyStep =
  | { kind: 'warehouse_patch'; warehouse_id: string; patch: Record<string, unknown>; request: string }
  | { kind: 'vacuum' | 'optimize' | 'drop'; table: TableName; sql: string };

/** What applying `rec` runs, as the dry run prints it and the apply job does it. */
export function applyPlan(rec: { type: string; subject: string; action: Record<string, unknown> }): ApplyStep {
  const patch = rec.action.patch as Record<string, unknown> | undefined;
  if (patch)
    return {
      kind: 'warehouse_patch',
      warehouse_id: rec.subject,
      patch,
      request: `PATCH /infrastructure/warehouses/${encodeURIComponent(rec.subject)} ${JSON.stringify(patch)}`,
    };
  const table = tableOf(rec.subject);
  if (!table) throw new Error(`recommendation subject ${rec.subject} is not a catalog.schema.table name`);
  if (rec.action.drop) return { kind: 'drop', table, sql: `DROP TABLE ${quoted(table)}` };
  if (rec.action.sql === 'VACUUM') return { kind: 'vacuum', table, sql: `VACUUM ${quoted(table)}` };
  if (rec.action.sql === 'OPTIMIZE') return { kind: 'optimize', table, sql: `OPTIMIZE ${quoted(table)}` };
  throw new Error(`recommendation ${rec.type} has no action Lakeward can run`);
}

/** Most intervals overlapping at one instant (an end at the same instant as a start does not overlap it). */
export function peakConcurrency(spans: { start: number; end: number }[]): number {
  const points = spans.flatMap((s) => [
    { t: s.start, d: 1 },
    { t: s.end, d: -1 },
  ]);
  points.sort((a, b) => a.t - b.t || a.d - b.d);
  let cur = 0;
  let peak = 0;
  for (const p of points) peak = Math.max(peak, (cur += p.d));
  return peak;
}
