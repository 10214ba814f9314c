import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { table } from './warehouses';

type Totals = { rerun: number; sla: number; triage: number; downstream: number; total: number };
const PARAMS = ['hourly_rate', 'rerun_cost', 'sla_penalty', 'downstream_multiplier', 'triage_hours', 'window_days'];

interface ParamFlags extends ApiOptions {
  hourlyRate?: string;
  rerunCost?: string;
  slaPenalty?: string;
  downstreamMultiplier?: string;
  triageHours?: string;
  windowDays?: string;
}

const usd = (n: number) => `$${n.toFixed(2)}`;
const cells = (t: Totals) => [usd(t.rerun), usd(t.sla), usd(t.triage), usd(t.downstream), usd(t.total)];
const HEAD = ['rerun', 'sla', 'triage', 'downstream', 'total'];

function params(o: ParamFlags): Record<string, number> {
  const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof ParamFlags;
  return Object.fromEntries(PARAMS.filter((k) => o[camel(k)] !== undefined).map((k) => [k, Number(o[camel(k)])]));
}

const paramFlags = (c: Command) =>
  c
    .option('--hourly-rate <usd>', 'triage cost per hour')
    .option('--rerun-cost <usd>', 'fixed cost of one rerun')
    .option('--sla-penalty <usd>', 'cost of one freshness breach')
    .option('--downstream-multiplier <x>', 'downstream cost as a multiple of the direct cost')
    .option('--triage-hours <h>', 'hours to triage one incident')
    .option('--window-days <n>', 'days the compute covers');

/** `lakeward copq compute|summary|by-table|trends|config`: the cost of poor data quality. */
export function registerCopqCommands(program: Command): void {
  const copq = program.command('copq').description('Cost of poor data quality');

  withApiOptions(paramFlags(copq.command('compute').description('Price the window’s data-quality facts'))).action(
    async (opts: ParamFlags) => {
      const r = await apiClient(opts).post<{ facts: number; events: number }>('/api/copq/compute', params(opts));
      print(opts, r, (x) => `${x.facts} facts priced as ${x.events} events`);
    },
  );
  withApiOptions(copq.command('summary').description('Totals by type')).action(async (opts: ApiOptions) => {
    const r = await apiClient(opts).get<Totals & { window_days: number; events: number }>('/api/copq/summary');
    print(opts, r, (x) => `last ${x.window_days} days, ${x.events} events\n${table(HEAD, [cells(x)])}`);
  });
  withApiOptions(copq.command('by-table').description('Per table, most expensive first')).action(
    async (opts: ApiOptions) => {
      const r = await apiClient(opts).get<{ tables: (Totals & { table: string })[] }>('/api/copq/by-table');
      print(opts, r, (x) =>
        table(
          ['table', ...HEAD],
          x.tables.map((t) => [t.table, ...cells(t)]),
        ),
      );
    },
  );
  withApiOptions(copq.command('trends').description('The last 12 ISO weeks')).action(async (opts: ApiOptions) => {
    const r = await apiClient(opts).get<{ weeks: (Totals & { week: string })[] }>('/api/copq/trends');
    print(opts, r, (x) =>
      table(
        ['week', ...HEAD],
        x.weeks.map((w) => [w.week, ...cells(w)]),
      ),
    );
  });
  withApiOptions(paramFlags(copq.command('config').description('Show, or with flags change, the defaults'))).action(
    async (opts: ParamFlags) => {
      const p = params(opts);
      const client = apiClient(opts);
      const r = Object.keys(p).length
        ? await client.request<Record<string, number>>('PUT', '/api/copq/config', p)
        : await client.get<Record<string, number>>('/api/copq/config');
      print(opts, r, (x) =>
        Object.entries(x)
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n'),
      );
    },
  );
}
