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
