import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { registerAuthCloudCommands } from './auth-cloud';
import { registerAuthWorkspaceCommands } from './auth-workspace';

interface Status {
  authenticated: boolean;
  user: string | null;
  host: string | null;
  auth_method: string | null;
}

const statusText = (s: Status) =>
  s.authenticated ? `signed in as ${s.user} on ${s.host} (${s.auth_method})` : `not signed in (${s.host ?? 'no host'})`;

/**
 * `lakeward auth status|login|profiles|env-vars` (and what the workspace offers: auth-workspace.ts). The CLI keeps no cookie: `login` checks a token with the
 * workspace (SCIM Me) and says who it acts as; per request the CLI's callers send X-Databricks-Host/Token.
 */
export function registerAuthCommands(program: Command): void {
  const auth = program.command('auth').description('Signing in to a workspace');

  withApiOptions(auth.command('status').description('Who the server is signed in as')).action(
    async (opts: ApiOptions) => print(opts, await apiClient(opts).get<Status>('/api/auth/status'), statusText),
  );

  withApiOptions(
    auth
      .command('login')
      .description('Check a personal access token with the workspace (DATABRICKS_TOKEN when --token is left out)')
      .requiredOption('--host <url>', 'workspace URL')
      .option('--token <token>', 'personal access token'),
  ).action(async (opts: ApiOptions & { host: string; token?: string }) => {
    const token = opts.token ?? process.env.DATABRICKS_TOKEN;
    if (!token) throw new Error('--token or DATABRICKS_TOKEN is required');
    const s = await apiClient(opts).post<Status>('/api/auth/login', { host: opts.host, token });
    print(opts, s, statusText);
  });

  withApiOptions(
    auth
      .command('oauth-login')
      .description('Start an OAuth user login: prints the URL to open in a browser (the server finishes it)')
      .requiredOption('--host <url>', 'workspace URL'),
  ).action(async (opts: ApiOptions & { host: string }) => {
    const r = await apiClient(opts).post<{ auth_url: string }>('/api/auth/oauth-login', { host: opts.host });
    print(opts, r, (x) => `open this URL to sign in:\n${x.auth_url}`);
  });

  withApiOptions(auth.command('profiles').description("Profiles of the server's ~/.databrickscfg")).action(
    async (opts: ApiOptions) => {
      const res = await apiClient(opts).get<{
        profiles: { name: string; host: string | null; auth_type: string | null }[];
      }>('/api/auth/profiles');
      print(opts, res.profiles, (ps) =>
        ps.length ? ps.map((p) => `${p.name}  ${p.host ?? '-'}  ${p.auth_type ?? '-'}`).join('\n') : 'no profiles',
      );
    },
  );

  withApiOptions(auth.command('env-vars').description("The server's workspace variables (secrets masked)")).action(
    async (opts: ApiOptions) => {
      const vars = await apiClient(opts).get<Record<string, string | null>>('/api/auth/env-vars');
      print(opts, vars, (v) =>
        Object.entries(v)
          .map(([k, x]) => `${k}=${x ?? ''}`)
          .join('\n'),
      );
    },
  );

  registerAuthWorkspaceCommands(auth);
  registerAuthCloudCommands(auth);
}
