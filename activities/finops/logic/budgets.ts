/**
 * Budgets: which cost a budget counts, its monthly period, the run-rate forecast, its state and the alert
 * levels it has reached. Pure: the caller passes the billing lines (the ledger's `billing` view) and the time.
 */
export const BUDGET_CATEGORIES = ['total', 'platform', 'compute', 'storage'] as const;
export type BudgetCategory = (typeof BUDGET_CATEGORIES)[number];
export type BudgetLevel = 'threshold' | 'exceeded';
export type BudgetState = 'ok' | 'warning' | 'over';

/** One row of the billing view: a day's cost per SKU, warehouse and job. */
export interface CostLine {
  usage_date: string;
  sku_name: string;
  warehouse_id: string | null;
  job_id: string | null;
  job_type: string | null;
  cost: number;
}

/** One row of the job-costs view over the period so far: a job's cost on a warehouse (tagged statements). */
export interface JobCostLine {
  job_id: string;
  job_type: string | null;
  warehouse_id: string | null;
  cost: number;
}

export interface BudgetSpec {
  category: string;
  amountUsd: number;
  alertThresholdPct: number;
  scope?: { warehouse_id?: string; job_type?: string } | null;
}

export interface Period {
  /** `YYYY-MM` */
  period: string;
  start: Date;
  end: Date;
}

const DAY = 86_400_000;
const r6 = (n: number) => Math.round(n * 1e6) / 1e6;
const r2 = (n: number) => Math.round(n * 100) / 100;

/** The calendar month (UTC) holding `now`. */
export function monthPeriod(now: Date): Period {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  return {
    period: `${y}-${String(m + 1).padStart(2, '0')}`,
    start: new Date(Date.UTC(y, m, 1)),
    end: new Date(Date.UTC(y, m + 1, 1)),
  };
}

/** The `days` window of the billing view that covers the period so far. */
export function billingDays(p: Period, now: Date): number {
  return Math.max(1, Math.ceil((now.getTime() - p.start.getTime()) / DAY) + 1);
}

/**
 * The `days` window of the job-costs view that starts on the period's first day: whole days from it to `now`'s
 * date (0 on the 1st, when the window is that day).
 */
export function jobCostDays(p: Period, now: Date): number {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.max(0, Math.round((today - p.start.getTime()) / DAY));
}

/**
 * Whether a line counts for the category: storage = the STORAGE SKU; compute = every warehouse DBU line
 * (work and idle); platform = the DBU cost of the work Lakeward's own jobs ran (lines with a job id, when the
 * job-costs view cannot be read); total = everything.
 */
export function inCategory(line: CostLine, category: string): boolean {
  const storage = line.sku_name === 'STORAGE';
  if (category === 'storage') return storage;
  if (category === 'compute') return !storage;
  if (category === 'platform') return !storage && line.job_id !== null;
  return true;
}

/**
 * The period's cost a budget counts (its category and scope, usage dates from the period start). `platform` is the
 * job-costs view's cost of Lakeward's jobs when it could be read (`jobs`; on Databricks usage lines name no
 * Lakeward job), else the billing lines with a job id.
 */
export function actualCost(lines: CostLine[], b: BudgetSpec, p: Period, jobs?: JobCostLine[] | null): number {
  if (b.category === 'platform' && jobs) {
    let sum = 0;
    for (const j of jobs) {
      if (b.scope?.warehouse_id && j.warehouse_id !== b.scope.warehouse_id) continue;
      if (b.scope?.job_type && j.job_type !== b.scope.job_type) continue;
      sum += j.cost;
    }
    return r6(sum);
  }
  const from = p.start.toISOString().slice(0, 10);
  const to = p.end.toISOString().slice(0, 10);
  let sum = 0;
  for (const l of lines) {
    if (l.usage_date < from || l.usage_date >= to || !inCategory(l, b.category)) continue;
    if (b.scope?.warehouse_id && l.warehouse_id !== b.scope.warehouse_id) continue;
    if (b.scope?.job_type && l.job_type !== b.scope.job_type) continue;
    sum += l.cost;
  }
  return r6(sum);
}

/** Linear run-rate: the cost so far ÷ the fraction of the period elapsed (the cost itself before any time has). */
export function forecastCost(actual: number, p: Period, now: Date): number {
  const elapsed = (now.getTime() - p.start.getTime()) / (p.end.getTime() - p.start.getTime());
  if (elapsed <= 0) return r6(actual);
  return r6(actual / Math.min(1, elapsed));
}

export interface BudgetStatus {
  period: string;
  actual_usd: number;
  forecast_usd: number;
  utilization_pct: number;
  state: BudgetState;
  levels: BudgetLevel[];
}

/** actual, forecast, utilization (actual ÷ amount), state and the alert levels reached this period. */
export function budgetStatus(lines: CostLine[], b: BudgetSpec, now: Date, jobs?: JobCostLine[] | null): BudgetStatus {
  const p = monthPeriod(now);
  const actual = actualCost(lines, b, p, jobs);
  const utilization = (actual / b.amountUsd) * 100;
  const levels: BudgetLevel[] = [];
  if (utilization >= b.alertThresholdPct) levels.push('threshold');
  if (utilization >= 100) levels.push('exceeded');
  return {
    period: p.period,
    actual_usd: actual,
    forecast_usd: forecastCost(actual, p, now),
    utilization_pct: r2(utilization),
    state: utilization >= 100 ? 'over' : utilization >= b.alertThresholdPct ? 'warning' : 'ok',
    levels,
  };
}

/** Rows of the billing view → cost lines. */
export function toCostLines(rows: Record<string, unknown>[]): CostLine[] {
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return rows.map((r) => ({
    usage_date: String(r.usage_date),
    sku_name: String(r.sku_name),
    warehouse_id: s(r.warehouse_id),
    job_id: s(r.job_id),
    job_type: s(r.job_type),
    cost: Number(r.cost),
  }));
}

/** Rows of the job-costs view → job cost lines. */
export function toJobCostLines(rows: Record<string, unknown>[]): JobCostLine[] {
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return rows.map((r) => ({
    job_id: String(r.job_id),
    job_type: s(r.job_type),
    warehouse_id: s(r.warehouse_id),
    cost: Number(r.cost),
  }));
}

/** A webhook must be https; plain http only to this machine (localhost, 127.0.0.1, ::1), for tests. */
export function webhookProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname)) return null;
  return 'must be https (http only to localhost)';
}

/** The text of a budget_alert notification. */
export function alertMessage(name: string, level: BudgetLevel, s: BudgetStatus, amount: number, pct: number): string {
  const what = level === 'exceeded' ? 'is over its amount' : `passed its ${pct}% alert threshold`;
  return `Budget "${name}" ${what} for ${s.period}: ${s.actual_usd.toFixed(2)} of ${amount.toFixed(2)} USD (${s.utilization_pct}%)`;
}

/** What one evaluation did. */
export interface EvaluationResult {
  period: string;
  evaluated: number;
  alerts_raised: number;
  webhooks_sent: number;
  webhook_failures: number;
}
