import { armList, azureCliToken } from '../../platform/databricks/auth/azure-cli';
import { normalizeHost } from '../../platform/databricks/auth/credentials';
import { AZURE_DATABRICKS_RESOURCE } from '../../platform/databricks/auth/token-source';
import { isPlatformError } from '../../platform/errors';
import {
  AuthStatusSchema,
  CloudConnectBodySchema,
  CloudLoginSchema,
  CloudSubscriptionsQuerySchema,
  CloudSubscriptionsSchema,
  CloudTenantsSchema,
  CloudWorkspacesQuerySchema,
  CloudWorkspacesSchema,
} from '../../schemas/auth';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import { establish, statusOf, whoAmI } from './sign-in';

/** ARM API versions of the calls the wizard makes. */
const TENANTS_API = '2022-12-01';
const SUBSCRIPTIONS_API = '2022-12-01';
const DATABRICKS_API = '2024-05-01';

/**
 * Platform failures of the CLI or ARM as HTTP: bad input → 400, anything else 502 (`CLOUD_REFUSED` when the CLI is
 * signed out or Azure refused; 401 stays Lakeward's own answer to a missing API key).
 */
async function cloud<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!isPlatformError(err)) throw err;
    if (err.code === 'PERMISSION_DENIED') throw new HttpError(502, 'CLOUD_REFUSED', err.message);
    if (err.code === 'INVALID_INPUT') throw new HttpError(400, 'VALIDATION_ERROR', err.message);
    throw new HttpError(502, 'CLOUD_UNREACHABLE', err.message);
  }
}

const arm = (deps: AppDeps) => deps.config.auth.azure_management_url;
const armToken = (deps: AppDeps, tenant?: string) => azureCliToken(arm(deps), tenant).then((t) => t.accessToken);
const ERRORS = { 502: 'The Azure CLI is not signed in, Azure refused, or Azure did not answer' };

/**
 * The cloud directory wizard through the server's Azure CLI (auth_method `azure-cli`): check the CLI's login,
 * list tenants, subscriptions and Azure Databricks workspaces from Azure Resource Manager (`auth.azure_management_url`),
 * then connect to one with an Entra ID token for Azure Databricks. Admin only: it lends the server's own identity.
 */
export const cloudRoutes = defineRoutes({
  name: 'auth-cloud',
  tags: ['auth'],
  routes: [
    route({
      method: 'post',
      path: '/auth/cloud-login',
      summary: 'Check that the server’s Azure CLI is signed in (az login), and as which tenant and subscription',
      role: 'admin',
      response: { description: 'The CLI is signed in', schema: CloudLoginSchema },
      errors: ERRORS,
      handler: async ({ deps }) => {
        const t = await cloud(() => azureCliToken(arm(deps)));
        return {
          status: 'ok' as const,
          message: 'the Azure CLI is signed in',
          tenant_id: t.tenant ?? null,
          subscription_id: t.subscription ?? null,
        };
      },
    }),
    route({
      method: 'get',
      path: '/auth/cloud/tenants',
      summary: 'Entra ID tenants the Azure CLI’s identity belongs to',
      role: 'admin',
      response: { description: 'Tenants', schema: CloudTenantsSchema },
      errors: ERRORS,
      handler: async ({ deps }) => {
        type Tenant = { tenantId: string; displayName?: string; defaultDomain?: string };
        const list = await cloud(async () => armList<Tenant>(arm(deps), '/tenants', TENANTS_API, await armToken(deps)));
        return {
          tenants: list.map((t) => ({
            tenant_id: t.tenantId,
            display_name: t.displayName ?? null,
            default_domain: t.defaultDomain ?? null,
          })),
        };
      },
    }),
    route({
      method: 'get',
      path: '/auth/cloud/subscriptions',
      summary: 'Subscriptions (of one tenant when tenant_id is given)',
      role: 'admin',
      request: { query: CloudSubscriptionsQuerySchema },
      response: { description: 'Subscriptions', schema: CloudSubscriptionsSchema },
      errors: ERRORS,
      handler: async ({ deps, input: { query } }) => {
        type Sub = { subscriptionId: string; displayName?: string; state?: string; tenantId?: string };
        const list = await cloud(async () =>
          armList<Sub>(arm(deps), '/subscriptions', SUBSCRIPTIONS_API, await armToken(deps, query.tenant_id)),
        );
        return {
          subscriptions: list.map((s) => ({
            subscription_id: s.subscriptionId,
            display_name: s.displayName ?? null,
            state: s.state ?? null,
            tenant_id: s.tenantId ?? null,
          })),
        };
      },
    }),
    route({
      method: 'get',
      path: '/auth/cloud/workspaces',
      summary: 'Azure Databricks workspaces of a subscription, with the host to connect to',
      role: 'admin',
      request: { query: CloudWorkspacesQuerySchema },
      response: { description: 'Workspaces', schema: CloudWorkspacesSchema },
      errors: ERRORS,
      handler: async ({ deps, input: { query } }) => {
        type Ws = { id: string; name: string; location?: string; properties?: { workspaceUrl?: string } };
        const path = `/subscriptions/${encodeURIComponent(query.subscription_id)}/providers/Microsoft.Databricks/workspaces`;
        const list = await cloud(async () => armList<Ws>(arm(deps), path, DATABRICKS_API, await armToken(deps)));
        return {
          workspaces: list.map((w) => ({
            name: w.name,
            host: w.properties?.workspaceUrl ? `https://${w.properties.workspaceUrl}` : null,
            location: w.location ?? null,
            resource_group: /\/resourceGroups\/([^/]+)/i.exec(w.id)?.[1] ?? null,
            id: w.id,
          })),
        };
      },
    }),
    route({
      method: 'post',
      path: '/auth/cloud/connect',
      summary: 'Sign in to an Azure Databricks workspace with the Azure CLI’s Entra ID token (checked with SCIM Me)',
      role: 'admin',
      request: { body: CloudConnectBodySchema },
      response: { description: 'Signed in', schema: AuthStatusSchema },
      errors: { ...ERRORS, 400: 'host is not an https URL' },
      handler: async ({ deps, req, input: { body } }) => {
        let host: string;
        try {
          host = normalizeHost(body.host);
        } catch (err) {
          throw new HttpError(400, 'VALIDATION_ERROR', (err as Error).message, [
            { path: 'body.host', message: (err as Error).message },
          ]);
        }
        const token = (await cloud(() => azureCliToken(AZURE_DATABRICKS_RESOURCE))).accessToken;
        const me = await whoAmI(host, { type: 'pat', token });
        await establish(req, { ...me, auth_method: 'azure-cli', credentials: { token } });
        return statusOf(req, deps.config);
      },
    }),
  ],
});
