import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { table } from './warehouses';

type Row = Record<string, string | null>;
const rowsOf = (items: Row[], keys: string[], empty: string) =>
  items.length
    ? table(
        keys,
        items.map((i) => keys.map((k) => i[k] ?? '-')),
      )
    : empty;

/** `lakeward auth cloud-login` and `lakeward auth cloud tenants|subscriptions|workspaces|connect` (Azure CLI wizard). */
export function registerAuthCloudCommands(auth: Command): void {
  withApiOptions(auth.command('cloud-login').description("Check the server's Azure CLI login (az login)")).action(
    async (opts: ApiOptions) => {
      const r = await apiClient(opts).post<Row & { message: string }>('/api/auth/cloud-login');
      print(opts, r, (x) => `${x.message} (tenant ${x.tenant_id ?? '-'}, subscription ${x.subscription_id ?? '-'})`);
    },
  );
  const cloud = auth.command('cloud').description('Azure tenants, subscriptions and Databricks workspaces');
  withApiOptions(cloud.command('tenants').description('Entra ID tenants')).action(async (opts: ApiOptions) => {
    const r = await apiClient(opts).get<{ tenants: Row[] }>('/api/auth/cloud/tenants');
    print(opts, r, (x) => rowsOf(x.tenants, ['tenant_id', 'display_name', 'default_domain'], 'no tenants'));
  });
  withApiOptions(
    cloud.command('subscriptions').description('Subscriptions').option('--tenant <id>', 'of one tenant'),
  ).action(async (opts: ApiOptions & { tenant?: string }) => {
    const q = opts.tenant ? `?tenant_id=${encodeURIComponent(opts.tenant)}` : '';
    const r = await apiClient(opts).get<{ subscriptions: Row[] }>(`/api/auth/cloud/subscriptions${q}`);
    print(opts, r, (x) => rowsOf(x.subscriptions, ['subscription_id', 'display_name', 'state'], 'no subscriptions'));
  });
  withApiOptions(
    cloud
      .command('workspaces')
      .description('Azure Databricks workspaces')
      .requiredOption('--subscription <id>', 'subscription id'),
  ).action(async (opts: ApiOptions & { subscription: string }) => {
    const r = await apiClient(opts).get<{ workspaces: Row[] }>(
      `/api/auth/cloud/workspaces?subscription_id=${encodeURIComponent(opts.subscription)}`,
    );
    print(opts, r, (x) => rowsOf(x.workspaces, ['name', 'host', 'location', 'resource_group'], 'no workspaces'));
  });
  withApiOptions(
    cloud.command('connect').description('Sign the server in to a workspace').requiredOption('--host <url>', 'host'),
  ).action(async (opts: ApiOptions & { host: string }) => {
    const r = await apiClient(opts).post<Row>('/api/auth/cloud/connect', { host: opts.host });
    print(opts, r, (x) => `signed in as ${x.user} on ${x.host} (${x.auth_method})`);
  });
}
