import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { table } from './warehouses';

interface Budget {
  id: string;
  name: string;
  category: string;
  amount_usd: number;
  alert_threshold_pct: number;
  current_period: string;
  actual_usd: number;
  forecast_usd: number;
  utilization_pct: number;
  state: string;
}

interface BudgetFlags extends ApiOptions {
  name?: string;
  category?: string;
  amount?: string;
  threshold?: string;
  webhook?: string;
  warehouse?: string;
  jobType?: string;
}

const usd = (n: number) => `$${n.toFixed(2)}`;
const rows = (bs: Budget[]) =>
  table(
    ['id', 'name', 'category', 'amount', 'actual', 'forecast', 'used', 'state'],
    bs.map((b) => [
      b.id,
      b.name,
      b.category,
      usd(b.amount_usd),
      usd(b.actual_usd),
      usd(b.forecast_usd),
      `${b.utilization_pct}%`,
      b.state,
    ]),
  );

/** The request body from the flags given (only those). */
function body(o: BudgetFlags): Record<string, unknown> {
  const scope = {
    ...(o.warehouse && { warehouse_id: o.warehouse }),
    ...(o.jobType && { job_type: o.jobType }),
  };
  return {
    ...(o.name !== undefined && { name: o.name }),
    ...(o.category !== undefined && { category: o.category }),
    ...(o.amount !== undefined && { amount_usd: Number(o.amount) }),
    ...(o.threshold !== undefined && { alert_threshold_pct: Number(o.threshold) }),
    ...(o.webhook !== undefined && { webhook_url: o.webhook }),
    ...(Object.keys(scope).length && { scope }),
  };
}

const fieldFlags = (c: Command) =>
  c
    .option('--name <name>', 'budget name')
    .option('--category <c>', 'total | platform | compute | storage')
    .option('--amount <usd>', 'monthly amount in USD (> 0)')
    .option('--threshold <pct>', 'alert threshold in percent (default 80)')
    .option('--webhook <url>', 'https URL POSTed once per alert')
    .option('--warehouse <id>', 'count only this warehouse')
    .option('--job-type <type>', 'count only this job type');

/** `lakeward budgets list|show|create|update|delete|evaluate`: monthly cost budgets kept by the server. */
export function registerBudgetCommands(program: Command): void {
  const budgets = program.command('budgets').description('Monthly cost budgets with alerts (kept by the server)');

  withApiOptions(budgets.command('list').description('Budgets with actual, forecast and state')).action(
    async (opts: ApiOptions) => {
      const r = await apiClient(opts).get<{ budgets: Budget[] }>('/api/finops/budgets');
      print(opts, r, (x) => (x.budgets.length ? rows(x.budgets) : 'no budgets'));
    },
  );
  withApiOptions(budgets.command('show <id>').description('One budget')).action(
    async (id: string, opts: ApiOptions) => {
      const b = await apiClient(opts).get<Budget>(`/api/finops/budgets/${encodeURIComponent(id)}`);
      print(opts, b, (x) => rows([x]));
    },
  );
  withApiOptions(fieldFlags(budgets.command('create').description('Create a budget'))).action(
    async (opts: BudgetFlags) => {
      const b = await apiClient(opts).post<Budget>('/api/finops/budgets', body(opts));
      print(opts, b, (x) => rows([x]));
    },
  );
  withApiOptions(fieldFlags(budgets.command('update <id>').description('Change a budget'))).action(
    async (id: string, opts: BudgetFlags) => {
      const b = await apiClient(opts).request<Budget>(
        'PATCH',
        `/api/finops/budgets/${encodeURIComponent(id)}`,
        body(opts),
      );
      print(opts, b, (x) => rows([x]));
    },
  );
  withApiOptions(budgets.command('delete <id>').description('Delete a budget')).action(
    async (id: string, opts: ApiOptions) => {
      const r = await apiClient(opts).request<{ id: string }>(
        'DELETE',
        `/api/finops/budgets/${encodeURIComponent(id)}`,
      );
      print(opts, r, (x) => `deleted ${x.id}`);
    },
  );
  withApiOptions(budgets.command('evaluate').description('Check every budget now (alerts once per level)')).action(
    async (opts: ApiOptions) => {
      const r = await apiClient(opts).post<{ evaluated: number; alerts_raised: number; webhooks_sent: number }>(
        '/api/finops/budgets/evaluate',
      );
      print(
        opts,
        r,
        (x) => `${x.evaluated} budgets evaluated, ${x.alerts_raised} alerts raised, ${x.webhooks_sent} webhooks sent`,
      );
    },
  );
}
