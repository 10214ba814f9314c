import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PermissionDeniedError } from '../../errors';
import { redact, Secret } from './secret';
import type { TokenSource } from './token-source';

const run = promisify(execFile);

/**
 * `auth_type = databricks-cli`: tokens from `databricks auth token --host <host>` (as the Databricks SDKs do),
 * which prints `{access_token, token_type, expiry}` and refreshes the CLI's own OAuth login when needed. The
 * executable is `DATABRICKS_CLI_PATH` or `databricks` on PATH. Cached until a minute before `expiry`.
 */
export class DatabricksCliTokenSource implements TokenSource {
  readonly method = 'databricks-cli' as const;
  private cached?: { token: Secret; expiresAt: number };
  constructor(
    private readonly host: string,
    private readonly profile?: string,
    private readonly executable = process.env.DATABRICKS_CLI_PATH || 'databricks',
  ) {}

  async token(): Promise<string> {
    if (this.cached && this.cached.expiresAt - 60_000 > Date.now()) return this.cached.token.reveal();
    const args = ['auth', 'token', '--host', this.host, ...(this.profile ? ['--profile', this.profile] : [])];
    let stdout: string;
    try {
      ({ stdout } = await run(this.executable, args, { timeout: 60_000, maxBuffer: 1 << 20 }));
    } catch (err) {
      const e = err as { code?: string; stderr?: string; message?: string };
      const why = e.code === 'ENOENT' ? `${this.executable} is not installed` : redact(e.stderr || e.message || '');
      throw new PermissionDeniedError(`databricks auth token failed: ${why.trim()}`);
    }
    let body: { access_token?: string; expiry?: string };
    try {
      body = JSON.parse(stdout) as typeof body;
    } catch {
      throw new PermissionDeniedError('databricks auth token did not print JSON');
    }
    if (!body.access_token) throw new PermissionDeniedError('databricks auth token printed no access_token');
    const expiry = body.expiry ? Date.parse(body.expiry) : NaN;
    this.cached = {
      token: new Secret(body.access_token),
      expiresAt: Number.isFinite(expiry) ? expiry : Date.now() + 10 * 60_000,
    };
    return body.access_token;
  }

  secrets(): string[] {
    return this.cached ? [this.cached.token.reveal()] : [];
  }
}
