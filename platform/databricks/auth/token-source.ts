import { InvalidInputError } from '../../errors';
import { classifyHttpError, classifySqlError } from '../classify';
import { Secret } from './secret';

/** Where bearer tokens come from; `secrets()` lists every value that must be redacted from messages. */
export interface TokenSource {
  token(): Promise<string>;
  secrets(): string[];
  readonly method: 'pat' | 'oauth-m2m' | 'azure-service-principal' | 'databricks-cli';
}

export class StaticTokenSource implements TokenSource {
  readonly method = 'pat' as const;
  constructor(private readonly value: Secret) {
    if (!value.reveal()) throw new InvalidInputError('token must not be empty');
  }
  async token(): Promise<string> {
    return this.value.reveal();
  }
  secrets(): string[] {
    return [this.value.reveal()];
  }
}

interface TokenResponse {
  access_token?: string;
  expires_in?: number | string;
}

/** Client-credentials flow shared by Databricks OAuth M2M and Microsoft Entra ID service principals. */
abstract class ClientCredentialsSource implements TokenSource {
  abstract readonly method: 'oauth-m2m' | 'azure-service-principal';
  private cached?: { token: Secret; expiresAt: number };
  private pending?: Promise<string>;
  constructor(
    protected readonly clientId: string,
    protected readonly clientSecret: Secret,
    private readonly fetchImpl: typeof fetch,
  ) {
    if (!clientId) throw new InvalidInputError('clientId must not be empty');
    if (!clientSecret.reveal()) throw new InvalidInputError('clientSecret must not be empty');
  }
  protected abstract request(): { url: string; headers: Record<string, string>; form: Record<string, string> };

  async token(): Promise<string> {
    // Refresh a minute early so a token never expires mid-request.
    if (this.cached && this.cached.expiresAt - 60_000 > Date.now()) return this.cached.token.reveal();
    this.pending ??= this.fetchToken().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async fetchToken(): Promise<string> {
    const { url, headers, form } = this.request();
    const what = `token request for client ${this.clientId}`;
    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw classifySqlError(err, this.secrets(), what);
    }
    const body = (await res.json().catch(() => ({}))) as TokenResponse & { error?: string; error_description?: string };
    if (!res.ok || !body.access_token) {
      const message = [body.error, body.error_description].filter(Boolean).join(': ');
      throw classifyHttpError(res.ok ? 401 : res.status, { message }, what, this.secrets());
    }
    const ttl = Number(body.expires_in ?? 3600);
    this.cached = { token: new Secret(body.access_token), expiresAt: Date.now() + ttl * 1000 };
    return body.access_token;
  }

  secrets(): string[] {
    return [this.clientSecret.reveal(), ...(this.cached ? [this.cached.token.reveal()] : [])];
  }
}

/** Databricks OAuth machine-to-machine: POST <host>/oidc/v1/token with HTTP Basic client credentials. */
export class DatabricksM2MTokenSource extends ClientCredentialsSource {
  readonly method = 'oauth-m2m' as const;
  constructor(
    private readonly host: string,
    clientId: string,
    clientSecret: Secret,
    fetchImpl: typeof fetch = fetch,
  ) {
    super(clientId, clientSecret, fetchImpl);
  }
  protected request() {
    const basic = Buffer.from(`${this.clientId}:${this.clientSecret.reveal()}`).toString('base64');
    return {
      url: new URL('/oidc/v1/token', this.host).toString(),
      headers: { Authorization: `Basic ${basic}` },
      form: { grant_type: 'client_credentials', scope: 'all-apis' },
    };
  }
}

/** The Entra ID application id of Azure Databricks; `<id>/.default` is the scope for its tokens. */
export const AZURE_DATABRICKS_RESOURCE = '2ff814a6-3304-4ab8-85cb-cd0e6f879c1d';

/** Azure service principal: Entra ID client-credentials token for the Azure Databricks resource. */
export class AzureServicePrincipalTokenSource extends ClientCredentialsSource {
  readonly method = 'azure-service-principal' as const;
  constructor(
    private readonly tenantId: string,
    clientId: string,
    clientSecret: Secret,
    private readonly authorityHost = 'https://login.microsoftonline.com',
    fetchImpl: typeof fetch = fetch,
  ) {
    super(clientId, clientSecret, fetchImpl);
    if (!/^[A-Za-z0-9.-]+$/.test(tenantId)) throw new InvalidInputError(`invalid tenantId ${JSON.stringify(tenantId)}`);
  }
  protected request() {
    return {
      url: new URL(`/${this.tenantId}/oauth2/v2.0/token`, this.authorityHost).toString(),
      headers: {},
      form: {
        grant_type: 'client_credentials',
        client_id: this.clientId,
        client_secret: this.clientSecret.reveal(),
        scope: `${AZURE_DATABRICKS_RESOURCE}/.default`,
      },
    };
  }
}
