import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { table } from './warehouses';

type Money = { dbus: number; cost: number };
type Billing =
  | { available: false; reason: string }
  | {
      available: true;
      days: number;
      totals: Money;
      by_warehouse: (Money & { warehouse_id: string })[];
      by_job: (Money & { job_id: string; job_type: string | null; warehouse_id: string | null })[];
    };
type Rows = { available: false; reason: string } | { available: true; rows: Record<string, unknown>[] };

interface DaysFlags extends ApiOptions {
  days: string;
}

const usd = (n: number) => `$${n.toFixed(6)}`;

/** `lakeward cost billing|jobs`: the usage ledger's billing views through the API. */
export function registerFinopsCommands(program: Command): void {
  const cost = program.command('cost').description('Billing from the usage ledger (system tables)');

  withApiOptions(
    cost.command('billing').description('Totals and cost per warehouse').option('--days <n>', 'window in days', '30'),
  ).action(async (opts: DaysFlags) => {
    const b = await apiClient(opts).get<Billing>(`/api/finops/billing?days=${encodeURIComponent(opts.days)}`);
    print(opts, b, (x) =>
      !x.available
        ? `billing unavailable: ${x.reason}`
        : [
            `last ${x.days} days: ${x.totals.dbus} DBU, ${usd(x.totals.cost)}`,
            table(
              ['warehouse', 'DBU', 'cost'],
              x.by_warehouse.map((w) => [w.warehouse_id, String(w.dbus), usd(w.cost)]),
            ),
          ].join('\n'),
    );
  });

  withApiOptions(cost.command('jobs').description('Cost per job').option('--days <n>', 'window in days', '30')).action(
    async (opts: DaysFlags) => {
      const r = await apiClient(opts).get<Rows>(`/api/finops/job-costs?days=${encodeURIComponent(opts.days)}`);
      print(opts, r, (x) =>
        !x.available
          ? `job costs unavailable: ${x.reason}`
          : x.rows.length === 0
            ? 'no job costs'
            : table(
                ['job', 'type', 'warehouse', 'DBU', 'cost'],
                x.rows.map((j) => [
                  String(j.job_id),
                  String(j.job_type ?? ''),
                  String(j.warehouse_id ?? ''),
                  String(j.dbus),
                  usd(Number(j.cost)),
                ]),
              ),
      );
    },
  );
}
