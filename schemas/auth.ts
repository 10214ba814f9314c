import { z } from 'zod';

/** How a session (or the server) reaches its workspace; reported as `auth_method`. */
export const AUTH_METHODS = [
  'pat',
  'oauth-u2m',
  'oauth-m2m',
  'azure-service-principal',
  'cli-profile',
  'azure-cli',
  'hosted-app',
  'local',
] as const;
export const AuthMethodSchema = z.enum(AUTH_METHODS);
export type AuthMethod = z.infer<typeof AuthMethodSchema>;

const httpsHost = z.string().trim().min(1, 'host is required').max(2048);

export const LoginBodySchema = z.strictObject({
  host: httpsHost,
  token: z.string().min(1, 'token is required').max(4096),
});

export const ServicePrincipalBodySchema = z.strictObject({
  host: httpsHost,
  client_id: z.string().trim().min(1).max(256),
  client_secret: z.string().min(1).max(4096),
  /** The Entra ID tenant; required when auth_type is cloud. */
  tenant_id: z.string().trim().min(1).max(256).optional(),
  /** platform: Databricks OAuth M2M; cloud: an Entra ID (Azure) service principal. */
  auth_type: z.enum(['platform', 'cloud']).default('platform'),
});

export const UseProfileBodySchema = z.strictObject({ profile_name: z.string().trim().min(1).max(256) });

/** The answer of login, status and auto-login. Never holds a credential. */
export const AuthStatusSchema = z.object({
  authenticated: z.boolean(),
  user: z.string().nullable(),
  host: z.string().nullable(),
  auth_method: AuthMethodSchema.nullable(),
  /** When the session ends: idle (moves with use) and absolute (fixed at sign-in); null without a session. */
  session: z.object({ idle_expires_at: z.string(), absolute_expires_at: z.string() }).nullable(),
});
export type AuthStatus = z.infer<typeof AuthStatusSchema>;

export const LogoutSchema = z.object({ status: z.literal('ok'), message: z.string() });

export const ProfilesSchema = z.object({
  profiles: z.array(z.object({ name: z.string(), host: z.string().nullable(), auth_type: z.string().nullable() })),
});

/** Environment variable → masked value (at most the last 4 characters of a secret) or null when unset. */
export const EnvVarsSchema = z.record(z.string(), z.string().nullable());

/** What the signed-in (or header) workspace offers: warehouses, volumes, a warehouse test, serving, Genie. */
export const AuthWarehousesSchema = z
  .object({
    warehouses: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        size: z.string().nullable(),
        state: z.string().nullable(),
        type: z.enum(['Pro', 'Serverless', 'Classic']).nullable(),
      }),
    ),
  })
  .meta({ id: 'AuthWarehouses' });

export const AuthVolumesQuerySchema = z.object({ catalog: z.string().trim().min(1).max(255).optional() });
export const AuthVolumesSchema = z
  .object({
    volumes: z.array(
      z.object({
        catalog: z.string(),
        schema: z.string(),
        name: z.string(),
        full_name: z.string(),
        volume_type: z.enum(['MANAGED', 'EXTERNAL']),
        storage_location: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'AuthVolumes' });

export const TestWarehouseBodySchema = z.strictObject({ warehouse_id: z.string().trim().min(1).max(255) });
export const TestWarehouseSchema = z
  .object({ status: z.enum(['success', 'error']), message: z.string(), result: z.unknown().nullable() })
  .meta({ id: 'TestWarehouse' });

export const ServingEndpointsSchema = z
  .object({
    success: z.boolean(),
    endpoints: z.array(
      z.object({ name: z.string(), state: z.string(), provider: z.string().nullable(), is_claude: z.boolean() }),
    ),
    reason: z.string().optional(),
  })
  .meta({ id: 'ServingEndpoints' });

export const NlSqlSpacesSchema = z
  .object({
    success: z.boolean(),
    spaces: z.array(z.object({ space_id: z.string(), title: z.string(), description: z.string().nullable() })),
    reason: z.string().optional(),
  })
  .meta({ id: 'NlSqlSpaces' });

/** The Azure CLI wizard (auth_method azure-cli): tenants → subscriptions → Azure Databricks workspaces → connect. */
export const CloudLoginSchema = z
  .object({
    status: z.literal('ok'),
    message: z.string(),
    tenant_id: z.string().nullable(),
    subscription_id: z.string().nullable(),
  })
  .meta({ id: 'CloudLogin' });
export const CloudTenantsSchema = z
  .object({
    tenants: z.array(
      z.object({ tenant_id: z.string(), display_name: z.string().nullable(), default_domain: z.string().nullable() }),
    ),
  })
  .meta({ id: 'CloudTenants' });
export const CloudSubscriptionsQuerySchema = z.object({ tenant_id: z.string().trim().min(1).max(256).optional() });
export const CloudSubscriptionsSchema = z
  .object({
    subscriptions: z.array(
      z.object({
        subscription_id: z.string(),
        display_name: z.string().nullable(),
        state: z.string().nullable(),
        tenant_id: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'CloudSubscriptions' });
export const CloudWorkspacesQuerySchema = z.object({
  subscription_id: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z-]{1,64}$/, 'a subscription id'),
});
export const CloudWorkspacesSchema = z
  .object({
    workspaces: z.array(
      z.object({
        name: z.string(),
        host: z.string().nullable(),
        location: z.string().nullable(),
        resource_group: z.string().nullable(),
        id: z.string(),
      }),
    ),
  })
  .meta({ id: 'CloudWorkspaces' });
export const CloudConnectBodySchema = z.strictObject({ host: z.string().trim().min(1, 'host is required').max(2048) });
