/**
 * Cost of poor data quality (COPQ): prices the recorded data-quality facts per table and ISO week. Pure: the
 * caller passes the facts, the ledger's cost per job and the time.
 *
 * - rerun = each failed DQ run (per table) or failed job × rerun_cost + its ledger cost
 * - sla = each freshness breach × sla_penalty
 * - triage = each incident × triage_hours × hourly_rate
 * - downstream = (rerun + sla + triage) × downstream_multiplier, priced per fact
 */
export interface CopqParams {
  hourly_rate: number;
  rerun_cost: number;
  sla_penalty: number;
  downstream_multiplier: number;
  triage_hours: number;
  window_days: number;
}

export const COPQ_DEFAULTS: CopqParams = {
  hourly_rate: 75,
  rerun_cost: 25,
  sla_penalty: 500,
  downstream_multiplier: 2.5,
  triage_hours: 2,
  window_days: 30,
};

export const COPQ_TYPES = ['rerun', 'sla', 'triage', 'downstream'] as const;
export type CopqType = (typeof COPQ_TYPES)[number];

export type CopqFact =
  /** A failed DQ run of one table, or a failed job; `jobId` finds its ledger cost, `share` the part of it. */
  | { kind: 'failure'; id: string; table: string; at: Date; jobId: string | null; share: number }
  | { kind: 'freshness_breach'; id: string; table: string; at: Date }
  | { kind: 'incident'; id: string; table: string; at: Date };

export interface CopqEvent {
  table: string;
  type: CopqType;
  fact: string;
  week: string;
  occurredAt: Date;
  costUsd: number;
  detail: Record<string, unknown>;
}

const r6 = (n: number) => Math.round(n * 1e6) / 1e6;
const DAY = 86_400_000;

/** ISO 8601 week of a time (UTC): `2026-W48`. */
export function isoWeek(d: Date): string {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const dow = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - dow); // the Thursday of the week decides its year
  const year = t.getUTCFullYear();
  const week = Math.ceil(((t.getTime() - Date.UTC(year, 0, 1)) / DAY + 1) / 7);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The `n` ISO weeks ending with the one holding `now`, oldest first. */
export function lastWeeks(now: Date, n: number): string[] {
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) out.push(isoWeek(new Date(now.getTime() - i * 7 * DAY)));
  return out;
}

/** Every COPQ event the facts give: one per fact and type, then its downstream event. */
export function copqEvents(facts: CopqFact[], jobCost: Map<string, number>, p: CopqParams): CopqEvent[] {
  const out: CopqEvent[] = [];
  for (const f of facts) {
    let type: CopqType;
    let cost: number;
    let detail: Record<string, unknown>;
    if (f.kind === 'failure') {
      const ledger = f.jobId ? (jobCost.get(f.jobId) ?? 0) * f.share : 0;
      type = 'rerun';
      cost = p.rerun_cost + ledger;
      detail = { fact: 'failure', job_id: f.jobId, rerun_cost: p.rerun_cost, ledger_cost: r6(ledger) };
    } else if (f.kind === 'freshness_breach') {
      type = 'sla';
      cost = p.sla_penalty;
      detail = { fact: 'freshness_breach', sla_penalty: p.sla_penalty };
    } else {
      type = 'triage';
      cost = p.triage_hours * p.hourly_rate;
      detail = { fact: 'incident', triage_hours: p.triage_hours, hourly_rate: p.hourly_rate };
    }
    const base = { table: f.table, fact: f.id, week: isoWeek(f.at), occurredAt: f.at };
    out.push({ ...base, type, costUsd: r6(cost), detail });
    out.push({
      ...base,
      type: 'downstream',
      costUsd: r6(cost * p.downstream_multiplier),
      detail: { of: type, downstream_multiplier: p.downstream_multiplier },
    });
  }
  return out;
}

export type CopqTotals = Record<CopqType | 'total', number>;

const zero = (): CopqTotals => ({ rerun: 0, sla: 0, triage: 0, downstream: 0, total: 0 });
function add(t: CopqTotals, e: Pick<CopqEvent, 'type' | 'costUsd'>): void {
  t[e.type] += e.costUsd;
  t.total += e.costUsd;
}
function round(t: CopqTotals): CopqTotals {
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, r6(v)])) as CopqTotals;
}

type Priced = Pick<CopqEvent, 'table' | 'type' | 'week' | 'costUsd'>;

export function copqSummary(events: Priced[]): CopqTotals & { events: number; tables: number } {
  const t = zero();
  for (const e of events) add(t, e);
  return { ...round(t), events: events.length, tables: new Set(events.map((e) => e.table)).size };
}

/** Per table, most expensive first. */
export function copqByTable(events: Priced[]): (CopqTotals & { table: string; events: number })[] {
  const by = new Map<string, { t: CopqTotals; n: number }>();
  for (const e of events) {
    const cur = by.get(e.table) ?? { t: zero(), n: 0 };
    add(cur.t, e);
    cur.n++;
    by.set(e.table, cur);
  }
  return [...by]
    .map(([table, { t, n }]) => ({ table, ...round(t), events: n }))
    .sort((a, b) => b.total - a.total || a.table.localeCompare(b.table));
}

/** Exactly the `weeks` ISO weeks ending with the current one, oldest first, zeros included. */
export function copqTrends(events: Priced[], now: Date, weeks = 12): (CopqTotals & { week: string })[] {
  const list = lastWeeks(now, weeks);
  const by = new Map(list.map((w) => [w, zero()]));
  for (const e of events) {
    const t = by.get(e.week);
    if (t) add(t, e);
  }
  return list.map((week) => ({ week, ...round(by.get(week) as CopqTotals) }));
}
