import { InvalidInputError } from '../../errors';
import { DatabricksCliTokenSource } from './cli-token-source';
import { readProfile, type ConfigProfile } from './databrickscfg';
import { Secret } from './secret';
import {
  AzureServicePrincipalTokenSource,
  DatabricksM2MTokenSource,
  StaticTokenSource,
  type TokenSource,
} from './token-source';

/** The four ways Lakeward authenticates to a workspace. */
export type DatabricksAuth =
  | { type: 'pat'; token: string | Secret }
  | { type: 'oauth-m2m'; clientId: string; clientSecret: string | Secret }
  | {
      type: 'azure-service-principal';
      tenantId: string;
      clientId: string;
      clientSecret: string | Secret;
      /** Entra ID authority; sovereign clouds differ. Default https://login.microsoftonline.com. */
      authorityHost?: string;
    }
  | { type: 'cli-profile'; profile?: string; configFile?: string };

const secret = (v: string | Secret) => (v instanceof Secret ? v : new Secret(v));

/** Workspace URL normalised to `https://host` (no path, no trailing slash). */
export function normalizeHost(host: string): string {
  const text = typeof host === 'string' ? host.trim() : '';
  if (!text) throw new InvalidInputError('host is required');
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    throw new InvalidInputError(`host is not a URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'https:' && !['localhost', '127.0.0.1'].includes(url.hostname)) {
    throw new InvalidInputError('host must be an https URL');
  }
  return url.origin;
}

export interface ResolvedAuth {
  host: string;
  tokens: TokenSource;
  /** Warehouse id from a CLI profile, when it names one. */
  warehouseId?: string;
}

/** Builds the token source; a CLI profile is read and turned into one of the other three methods. */
export async function resolveAuth(
  host: string | undefined,
  auth: DatabricksAuth,
  fetchImpl: typeof fetch = fetch,
): Promise<ResolvedAuth> {
  if (auth.type === 'cli-profile')
    return fromProfile(await readProfile(auth.profile, auth.configFile), auth.profile, host, fetchImpl);
  const h = normalizeHost(host ?? '');
  switch (auth.type) {
    case 'pat':
      return { host: h, tokens: new StaticTokenSource(secret(auth.token)) };
    case 'oauth-m2m':
      return { host: h, tokens: new DatabricksM2MTokenSource(h, auth.clientId, secret(auth.clientSecret), fetchImpl) };
    case 'azure-service-principal':
      return {
        host: h,
        tokens: new AzureServicePrincipalTokenSource(
          auth.tenantId,
          auth.clientId,
          secret(auth.clientSecret),
          auth.authorityHost,
          fetchImpl,
        ),
      };
    default:
      throw new InvalidInputError(`unknown auth type ${JSON.stringify((auth as { type?: unknown }).type)}`);
  }
}

function fromProfile(
  p: ConfigProfile,
  profileName: string | undefined,
  hostOverride: string | undefined,
  fetchImpl: typeof fetch,
): Promise<ResolvedAuth> {
  const host = hostOverride ?? p.host;
  const withWarehouse = (r: ResolvedAuth) => ({ ...r, warehouseId: p.warehouse_id || undefined });
  if (p.token) return resolveAuth(host, { type: 'pat', token: p.token }, fetchImpl).then(withWarehouse);
  if (p.auth_type === 'databricks-cli') {
    const h = normalizeHost(host ?? '');
    return Promise.resolve(withWarehouse({ host: h, tokens: new DatabricksCliTokenSource(h, profileName) }));
  }
  if (p.azure_tenant_id && p.azure_client_id && p.azure_client_secret) {
    const auth = {
      type: 'azure-service-principal' as const,
      tenantId: p.azure_tenant_id,
      clientId: p.azure_client_id,
      clientSecret: p.azure_client_secret,
    };
    return resolveAuth(host, auth, fetchImpl).then(withWarehouse);
  }
  if (p.client_id && p.client_secret) {
    return resolveAuth(
      host,
      { type: 'oauth-m2m', clientId: p.client_id, clientSecret: p.client_secret },
      fetchImpl,
    ).then(withWarehouse);
  }
  throw new InvalidInputError(
    'CLI profile has no token, client_id/client_secret or azure_* service principal credentials',
  );
}
