import type { Request } from 'express';
import { AuthStatusSchema, LoginBodySchema, LogoutSchema, ServicePrincipalBodySchema } from '../../schemas/auth';
import { HttpError } from '../middleware/http-error';
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
  ],
});
