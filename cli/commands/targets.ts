import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

interface TargetView {
  name: string;
  host: string;
  auth_method: string;
  warehouse_id: string;
  data_sync_mode: string;
  auto_handle_masks: boolean;
  keep_share: boolean;
  credentials_set: string[];
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const targetRows = (ts: TargetView[]) =>
  ts.length === 0
    ? 'no saved targets'
    : table(
        ['name', 'host', 'auth', 'warehouse', 'sync mode', 'credentials'],
        ts.map((t) => [t.name, t.host, t.auth_method, t.warehouse_id, t.data_sync_mode, t.credentials_set.join(',')]),
      );

interface TargetFlags extends ApiOptions {
  host?: string;
  auth?: string;
  warehouse?: string;
  syncMode?: string;
  tokenEnv?: string;
  clientId?: string;
  clientSecretEnv?: string;
  tenantId?: string;
  profile?: string;
  autoHandleMasks?: boolean;
  keepShare?: boolean;
}

/** Secrets come from environment variables named by flags, never from the command line (shell history). */
function body(o: TargetFlags): Record<string, unknown> {
  const env = (name: string | undefined) => {
    if (!name) return undefined;
    const v = process.env[name];
    if (!v) throw new Error(`environment variable ${name} is not set`);
    return v;
  };
  const b: Record<string, unknown> = {
    host: o.host,
    auth_method: o.auth,
    warehouse_id: o.warehouse,
    data_sync_mode: o.syncMode,
    token: env(o.tokenEnv),
    client_id: o.clientId,
    client_secret: env(o.clientSecretEnv),
    tenant_id: o.tenantId,
    profile: o.profile,
    auto_handle_masks: o.autoHandleMasks,
    keep_share: o.keepShare,
  };
  return Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined));
}

const targetFlags = (cmd: Command) =>
  withApiOptions(
    cmd
      .option('--host <url>', 'workspace URL (https://…)')
      .option('--auth <method>', 'token, service_principal or cli_profile')
      .option('--warehouse <id>', 'SQL warehouse id')
      .option('--sync-mode <mode>', 'snapshot_once, incremental or force_full')
      .option('--token-env <name>', 'environment variable holding the token')
      .option('--client-id <id>', 'service principal client id')
      .option('--client-secret-env <name>', 'environment variable holding the client secret')
      .option('--tenant-id <id>', 'Azure tenant id (service principal)')
      .option('--profile <name>', 'Databricks CLI profile')
      .option('--auto-handle-masks', 'drop and re-apply column masks and row filters around the clone')
      .option('--keep-share', 'keep the migration share after the clone'),
  );

/** `lakeward targets list|show|add|update|delete|whoami`: saved target connections through the API. */
export function registerTargetCommands(program: Command): void {
  const targets = program.command('targets').description('Saved target connections (credentials encrypted at rest)');

  withApiOptions(targets.command('list').description('List saved targets')).action(async (opts: ApiOptions) => {
    print(opts, await apiClient(opts).get<TargetView[]>('/api/targets'), targetRows);
  });

  withApiOptions(targets.command('show').argument('<name>')).action(async (name: string, opts: ApiOptions) => {
    print(opts, await apiClient(opts).get<TargetView>(`/api/targets/${encodeURIComponent(name)}`), (t) =>
      targetRows([t]),
    );
  });

  targetFlags(targets.command('add').argument('<name>').description('Save a target')).action(
    async (name: string, opts: TargetFlags) => {
      const saved = await apiClient(opts).post<TargetView>('/api/targets', { name, ...body(opts) });
      print(opts, saved, (t) => `saved ${t.name} (${t.host}, credentials: ${t.credentials_set.join(', ') || 'none'})`);
    },
  );

  targetFlags(targets.command('update').argument('<name>').description('Change a target; unsent fields stay')).action(
    async (name: string, opts: TargetFlags) => {
      const saved = await apiClient(opts).request<TargetView>(
        'PUT',
        `/api/targets/${encodeURIComponent(name)}`,
        body(opts),
      );
      print(opts, saved, (t) => `updated ${t.name}`);
    },
  );

  withApiOptions(targets.command('delete').argument('<name>')).action(async (name: string, opts: ApiOptions) => {
    const res = await apiClient(opts).request<{ name: string }>('DELETE', `/api/targets/${encodeURIComponent(name)}`);
    print(opts, res, (r) => `deleted ${r.name}`);
  });

  withApiOptions(
    targets.command('whoami').argument('<name>').description('The identity the saved credentials resolve to'),
  ).action(async (name: string, opts: ApiOptions) => {
    const me = await apiClient(opts).post<{
      name: string;
      host: string;
      user_name: string;
      display_name: string | null;
    }>('/api/target/whoami', { name });
    print(opts, me, (m) => `${m.name} (${m.host}): ${m.user_name}${m.display_name ? ` (${m.display_name})` : ''}`);
  });
}
