import type { Request } from 'express';
import { readFile } from 'node:fs/promises';
import { defaultConfigFile, parseDatabricksCfg, readProfile } from '../../platform/databricks/auth/databrickscfg';
import {
  AuthStatusSchema,
  EnvVarsSchema,
  LoginBodySchema,
  LogoutSchema,
  ProfilesSchema,
  ServicePrincipalBodySchema,
  UseProfileBodySchema,
} from '../../schemas/auth';
import { authEnvVars, hostedApp } from './environment';
import { HttpError, notFound } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import { SESSION_COOKIE } from './session';
import { establish, statusOf, whoAmI } from './sign-in';

const REFUSED = { 401: 'The workspace refused the credentials', 502: 'The workspace could not be reached' };

const destroy = (req: Request) =>
  new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));

/**
 * Signing in to a workspace: each method checks its credentials with SCIM `Me`, then keeps a server-side session
 * (api/auth/session.ts). The sign-in routes are open (no API key needed); see the README for the role a session has.
 */
export const authRoutes = defineRoutes({
  name: 'auth',
  routes: [
    route({
      method: 'post',
      path: '/auth/login',
      summary: 'Sign in with a personal access token (checked with SCIM Me); starts a session',
      security: [],
      request: { body: LoginBodySchema },
      response: { description: 'Signed in', schema: AuthStatusSchema },
      errors: REFUSED,
      handler: async ({ deps, req, input: { body } }) => {
        const me = await whoAmI(body.host, { type: 'pat', token: body.token });
        await establish(req, { ...me, auth_method: 'pat', credentials: { token: body.token } });
        return statusOf(req, deps.config);
      },
    }),
    route({
      method: 'post',
      path: '/auth/service-principal',
      summary: 'Sign in as a service principal: Databricks OAuth M2M (platform) or Entra ID (cloud)',
      security: [],
      request: { body: ServicePrincipalBodySchema },
      response: { description: 'Signed in', schema: AuthStatusSchema },
      errors: { ...REFUSED, 422: 'auth_type cloud without tenant_id' },
      handler: async ({ deps, req, input: { body } }) => {
        if (body.auth_type === 'cloud' && !body.tenant_id) {
          throw new HttpError(422, 'VALIDATION_ERROR', 'tenant_id is required when auth_type is cloud', [
            { path: 'body.tenant_id', message: 'required when auth_type is cloud' },
          ]);
        }
        const cloud = body.auth_type === 'cloud';
        const me = await whoAmI(
          body.host,
          cloud
            ? {
                type: 'azure-service-principal',
                tenantId: body.tenant_id!,
                clientId: body.client_id,
                clientSecret: body.client_secret,
                authorityHost: deps.config.auth.azure_authority_host,
              }
            : { type: 'oauth-m2m', clientId: body.client_id, clientSecret: body.client_secret },
        );
        const credentials = {
          client_id: body.client_id,
          client_secret: body.client_secret,
          ...(cloud ? { tenant_id: body.tenant_id } : {}),
        };
        await establish(req, { ...me, auth_method: cloud ? 'azure-service-principal' : 'oauth-m2m', credentials });
        return statusOf(req, deps.config);
      },
    }),
    route({
      method: 'get',
      path: '/auth/status',
      summary: 'Who this session is signed in as (local on the embedded stack)',
      security: [],
      response: { description: 'Sign-in status', schema: AuthStatusSchema },
      handler: ({ deps, req }) => statusOf(req, deps.config),
    }),
    route({
      method: 'post',
      path: '/auth/logout',
      summary: 'End the session (its store row is deleted); later requests must sign in again',
      security: [],
      response: { description: 'Signed out', schema: LogoutSchema },
      handler: async ({ req, res }) => {
        const had = Boolean(req.session?.workspace);
        if (req.session) await destroy(req);
        res.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
        return { status: 'ok' as const, message: had ? 'Signed out; the session has ended' : 'No session was open' };
      },
    }),
    route({
      method: 'get',
      path: '/auth/auto-login',
      summary: "Sign in as the app's service principal when running as a Databricks App (else 404)",
      security: [],
      response: { description: 'Signed in', schema: AuthStatusSchema },
      errors: { ...REFUSED, 404: 'Not running as a Databricks App' },
      handler: async ({ deps, req }) => {
        const app = hostedApp(process.env);
        if (!app)
          throw notFound('Not running as a Databricks App (DATABRICKS_APP_NAME and its service principal are not set)');
        const me = await whoAmI(app.host, {
          type: 'oauth-m2m',
          clientId: app.clientId,
          clientSecret: app.clientSecret,
        });
        const credentials = { client_id: app.clientId, client_secret: app.clientSecret };
        await establish(req, { ...me, auth_method: 'hosted-app', credentials });
        return statusOf(req, deps.config);
      },
    }),
    route({
      method: 'get',
      path: '/auth/profiles',
      summary: "Profiles of the server's Databricks CLI configuration (~/.databrickscfg): names, hosts, auth types",
      response: { description: 'Profiles', schema: ProfilesSchema },
      handler: async () => {
        const text = await readFile(defaultConfigFile(), 'utf8').catch(() => '');
        const profiles = [...parseDatabricksCfg(text)].map(([name, p]) => ({
          name,
          host: p.host ?? null,
          auth_type: p.auth_type ?? (p.token ? 'pat' : null),
        }));
        return { profiles };
      },
    }),
    route({
      method: 'post',
      path: '/auth/use-profile',
      summary:
        "Sign in with a profile of the server's Databricks CLI configuration (admin: it lends the server's credentials)",
      role: 'admin',
      request: { body: UseProfileBodySchema },
      response: { description: 'Signed in', schema: AuthStatusSchema },
      errors: { ...REFUSED, 404: 'No such profile' },
      handler: async ({ deps, req, input: { body } }) => {
        const name = body.profile_name;
        const profile = await readProfile(name);
        const me = await whoAmI(profile.host, { type: 'cli-profile', profile: name });
        await establish(req, { ...me, auth_method: 'cli-profile', credentials: { profile: name } });
        return statusOf(req, deps.config);
      },
    }),
    route({
      method: 'get',
      path: '/auth/env-vars',
      summary: 'Workspace and cloud principal environment variables of the server (secrets show at most 4 characters)',
      response: { description: 'Variable → masked value or null', schema: EnvVarsSchema },
      handler: () => authEnvVars(process.env),
    }),
  ],
});
