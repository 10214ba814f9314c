import type { Workspace } from '../../platform/port';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Store } from '../../store/db';
import {
  claimUndeliveredAlerts,
  listBudgets,
  raiseBudgetAlert,
  settleAlertWebhook,
  type BudgetRow,
} from '../../store/finops/budgets-repo';
import {
  alertMessage,
  billingDays,
  budgetStatus,
  jobCostDays,
  monthPeriod,
  toCostLines,
  toJobCostLines,
  type BudgetStatus,
  type CostLine,
  type EvaluationResult,
  type JobCostLine,
} from './logic/budgets';
import { viewSql } from './logic/views';

/** The period's billing lines from the ledger's `billing` view on `ws`. */
export async function readCostLines(ws: Workspace, now: Date): Promise<CostLine[]> {
  const res = await ws.query(viewSql('billing', billingDays(monthPeriod(now), now)));
  return toCostLines(res.rows);
}

/** The period's cost per job (the job-costs view from the period's first day), or null when it cannot be read. */
export async function readJobCosts(ws: Workspace, now: Date): Promise<JobCostLine[] | null> {
  try {
    const res = await ws.query(viewSql('job-costs', jobCostDays(monthPeriod(now), now)));
    return toJobCostLines(res.rows);
  } catch {
    return null;
  }
}

async function postWebhook(b: BudgetRow, level: string, s: BudgetStatus): Promise<string | null> {
  try {
    const res = await fetch(b.webhookUrl as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-lakeward-event-id': `${b.id}/${s.period}/${level}` },
      body: JSON.stringify({
        type: 'budget_alert',
        budget_id: b.id,
        name: b.name,
        category: b.category,
        period: s.period,
        level,
        amount_usd: b.amountUsd,
        alert_threshold_pct: b.alertThresholdPct,
        actual_usd: s.actual_usd,
        forecast_usd: s.forecast_usd,
        utilization_pct: s.utilization_pct,
      }),
      signal: AbortSignal.timeout(15_000),
    });
    return res.ok ? null : `webhook answered ${res.status}`;
  } catch (err) {
    return `webhook failed: ${(err as Error).message}`;
  }
}

/**
 * Checks every budget against the ledger's cost: each level reached (threshold, 100%) gets one alert row and
 * `budget_alert` notification per budget and period, then the webhook POSTs of alerts not delivered yet.
 */
export async function evaluateBudgets(store: Store, ws: Workspace, now = new Date()): Promise<EvaluationResult> {
  const budgets = await listBudgets(store.db);
  const lines = budgets.length ? await readCostLines(ws, now) : [];
  const jobs = budgets.some((b) => b.category === 'platform') ? await readJobCosts(ws, now) : null;
  const out: EvaluationResult = {
    period: monthPeriod(now).period,
    evaluated: budgets.length,
    alerts_raised: 0,
    webhooks_sent: 0,
    webhook_failures: 0,
  };
  for (const b of budgets) {
    const s = budgetStatus(lines, b, now, jobs);
    for (const level of s.levels) {
      const raised = await raiseBudgetAlert(store.db, {
        budgetId: b.id,
        period: s.period,
        level,
        utilizationPct: s.utilization_pct,
        actualUsd: s.actual_usd,
        message: alertMessage(b.name, level, s, b.amountUsd, b.alertThresholdPct),
      });
      if (raised) out.alerts_raised++;
    }
    if (!b.webhookUrl) continue;
    for (const a of await claimUndeliveredAlerts(store.db, b.id, now)) {
      const error = await postWebhook(b, a.level, { ...s, period: a.period });
      await settleAlertWebhook(store.db, a, error, new Date());
      if (error) out.webhook_failures++;
      else out.webhooks_sent++;
    }
  }
  return out;
}

export type { EvaluationResult };

export function createBudgetActivities(deps: { store: Store; workspaces: WorkspaceResolver }) {
  return {
    /** The hourly Schedule's (and POST …/budgets/evaluate's) check of every budget. */
    async evaluateBudgets(): Promise<EvaluationResult> {
      return evaluateBudgets(deps.store, await deps.workspaces.default());
    },
  };
}

export type BudgetActivities = ReturnType<typeof createBudgetActivities>;
