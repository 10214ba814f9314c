import type { Request } from 'express';
import {
  budgetStatus,
  monthPeriod,
  billingDays,
  jobCostDays,
  toCostLines,
  toJobCostLines,
  webhookProblem,
} from '../../activities/finops/logic/budgets';
import type { CostLine, JobCostLine } from '../../activities/finops/logic/budgets';
import { viewSql } from '../../activities/finops/logic/views';
import {
  deleteBudget,
  getBudget,
  insertBudget,
  listBudgetAlerts,
  listBudgets,
  updateBudget,
  type BudgetRow,
} from '../../store/finops/budgets-repo';
import type { AppDeps } from '../deps';
import { HttpError, notFound } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import {
  BudgetCreateSchema,
  BudgetEvaluationSchema,
  BudgetIdParams,
  BudgetListSchema,
  BudgetPatchSchema,
  BudgetSchema,
} from './budgets-schemas';
import { ensureBudgetSchedule, runBudgetEvaluation } from './budgets-schedule';

type Cost = { ok: true; lines: CostLine[]; jobs: JobCostLine[] | null } | { ok: false; reason: string };

/**
 * The period's billing lines from the request's workspace (the ledger's system tables), and its cost per job
 * (the job-costs view, null when it cannot be read) for `platform` budgets.
 */
async function costLines(deps: AppDeps, req: Request, now: Date): Promise<Cost> {
  try {
    const ws = await deps.workspaces.resolve(req);
    const res = await ws.query(viewSql('billing', billingDays(monthPeriod(now), now)));
    const jobs = await ws
      .query(viewSql('job-costs', jobCostDays(monthPeriod(now), now)))
      .then((r) => toJobCostLines(r.rows))
      .catch(() => null);
    return { ok: true, lines: toCostLines(res.rows), jobs };
  } catch (err) {
    return { ok: false, reason: `system tables are not readable: ${(err as Error).message}` };
  }
}

async function present(deps: AppDeps, b: BudgetRow, cost: Cost, now: Date) {
  const s = budgetStatus(cost.ok ? cost.lines : [], b, now, cost.ok ? cost.jobs : null);
  const alerts = await listBudgetAlerts(deps.store.db, b.id);
  return {
    id: b.id,
    name: b.name,
    period: 'monthly' as const,
    category: b.category as 'total' | 'platform' | 'compute' | 'storage',
    amount_usd: b.amountUsd,
    alert_threshold_pct: b.alertThresholdPct,
    scope: b.scope ?? null,
    webhook_url: b.webhookUrl,
    current_period: s.period,
    actual_usd: s.actual_usd,
    forecast_usd: s.forecast_usd,
    utilization_pct: s.utilization_pct,
    state: s.state,
    cost_available: cost.ok,
    ...(cost.ok ? {} : { cost_unavailable_reason: cost.reason }),
    alerts: alerts.map((a) => ({ period: a.period, level: a.level, created_at: a.createdAt.toISOString() })),
    created_at: b.createdAt.toISOString(),
    updated_at: b.updatedAt.toISOString(),
  };
}

function checkWebhook(url: string | null | undefined): void {
  if (!url) return;
  const problem = webhookProblem(url);
  if (problem)
    throw new HttpError(422, 'VALIDATION_ERROR', `webhook_url ${problem}`, [
      { path: 'body.webhook_url', message: problem },
    ]);
}

async function mustGet(deps: AppDeps, id: string): Promise<BudgetRow> {
  const b = await getBudget(deps.store.db, id);
  if (!b) throw notFound(`budget ${id} not found`);
  return b;
}

/**
 * Monthly cost budgets kept in the store; reads add the period's actual cost from the usage ledger, the
 * run-rate forecast, utilization and state. `/finops/budgets*` with and without `/api`.
 */
export const budgetRoutes = defineRoutes({
  name: 'finops-budgets',
  mounts: ['/api', '/'],
  routes: [
    route({
      method: 'get',
      path: '/finops/budgets',
      summary: 'Budgets with the current period’s actual and forecast cost, utilization and state',
      response: { description: 'Budgets', schema: BudgetListSchema },
      handler: async ({ deps, req }) => {
        const now = deps.now?.() ?? new Date();
        const [rows, cost] = await Promise.all([listBudgets(deps.store.db), costLines(deps, req, now)]);
        return { budgets: await Promise.all(rows.map((b) => present(deps, b, cost, now))) };
      },
    }),
    route({
      method: 'post',
      path: '/finops/budgets',
      summary: 'Create a budget (and the hourly evaluation Schedule, once)',
      request: { body: BudgetCreateSchema },
      response: { status: 201, description: 'The budget', schema: BudgetSchema },
      errors: { 422: 'webhook_url is not https (or http to localhost)' },
      handler: async ({ deps, req, input: { body } }) => {
        checkWebhook(body.webhook_url);
        const b = await insertBudget(deps.store.db, {
          name: body.name,
          category: body.category,
          amountUsd: body.amount_usd,
          alertThresholdPct: body.alert_threshold_pct,
          scope: body.scope ?? null,
          webhookUrl: body.webhook_url ?? null,
        });
        await ensureBudgetSchedule(deps);
        const now = deps.now?.() ?? new Date();
        return present(deps, b, await costLines(deps, req, now), now);
      },
    }),
    route({
      method: 'post',
      path: '/finops/budgets/evaluate',
      summary: 'Evaluate every budget now (answers when done); each level alerts once per budget and period',
      response: { description: 'What the evaluation did', schema: BudgetEvaluationSchema },
      errors: { 503: 'Temporal is not reachable' },
      handler: async ({ deps }) => runBudgetEvaluation(deps),
    }),
    route({
      method: 'get',
      path: '/finops/budgets/:id',
      summary: 'One budget with its current period’s cost and the alerts it raised',
      request: { params: BudgetIdParams },
      response: { description: 'The budget', schema: BudgetSchema },
      errors: { 404: 'No such budget' },
      handler: async ({ deps, req, input: { params } }) => {
        const now = deps.now?.() ?? new Date();
        return present(deps, await mustGet(deps, params.id), await costLines(deps, req, now), now);
      },
    }),
    route({
      method: 'patch',
      path: '/finops/budgets/:id',
      summary: 'Change a budget’s fields',
      request: { params: BudgetIdParams, body: BudgetPatchSchema },
      response: { description: 'The budget', schema: BudgetSchema },
      errors: { 404: 'No such budget', 422: 'webhook_url is not https (or http to localhost)' },
      handler: async ({ deps, req, input: { params, body } }) => {
        await mustGet(deps, params.id);
        checkWebhook(body.webhook_url);
        const b = await updateBudget(deps.store.db, params.id, {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.category !== undefined && { category: body.category }),
          ...(body.amount_usd !== undefined && { amountUsd: body.amount_usd }),
          ...(body.alert_threshold_pct !== undefined && { alertThresholdPct: body.alert_threshold_pct }),
          ...(body.scope !== undefined && { scope: body.scope }),
          ...(body.webhook_url !== undefined && { webhookUrl: body.webhook_url }),
        });
        if (!b) throw notFound(`budget ${params.id} not found`);
        const now = deps.now?.() ?? new Date();
        return present(deps, b, await costLines(deps, req, now), now);
      },
    }),
    route({
      method: 'delete',
      path: '/finops/budgets/:id',
      summary: 'Delete a budget (and its alert history)',
      role: 'editor',
      request: { params: BudgetIdParams },
      response: { description: 'Deleted', schema: BudgetIdParams },
      errors: { 404: 'No such budget' },
      handler: async ({ deps, input: { params } }) => {
        if (!(await deleteBudget(deps.store.db, params.id))) throw notFound(`budget ${params.id} not found`);
        return { id: params.id };
      },
    }),
  ],
});
