import type { Request } from 'express';
import type { Client, Issuer } from 'openid-client';
import { z } from 'zod';
import { normalizeHost } from '../../platform/databricks/auth/credentials';
import { lazyModule } from '../../platform/lazy-module';
import { AuthStatusSchema } from '../../schemas/auth';
import { HttpError } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import { establish, statusOf, whoAmI } from './sign-in';

/** What the browser's round trip needs back: kept in the (encrypted) session until the callback. */
export interface OAuthPending {
  host: string;
  state: string;
  code_verifier: string;
  redirect_uri: string;
  started_at: string;
}

declare module 'express-session' {
  interface SessionData {
    oauthPending?: OAuthPending;
  }
}

/** A pending login older than this is refused at the callback (the user must start again). */
const PENDING_MS = 10 * 60_000;
const SCOPE = 'all-apis offline_access';

const OAuthLoginBodySchema = z.strictObject({ host: z.string().trim().min(1, 'host is required').max(2048) });
const OAuthLoginSchema = z
  .object({ auth_url: z.string(), state: z.string(), redirect_uri: z.string() })
  .meta({ id: 'OAuthLogin' });
const OAuthCallbackQuerySchema = z.object({
  code: z.string().min(1).max(4096).optional(),
  state: z.string().min(1).max(512).optional(),
  error: z.string().max(512).optional(),
  error_description: z.string().max(2048).optional(),
});

/** openid-client (and jose) load at the first OAuth login, not with every API. */
const oidc = lazyModule<typeof import('openid-client')>('openid-client');

/** The workspace's OAuth server (Databricks publishes RFC 8414 metadata under /oidc) and a public PKCE client. */
async function clientFor(host: string, clientId: string, redirectUri: string): Promise<Client> {
  let issuer: Issuer;
  try {
    issuer = await oidc().Issuer.discover(`${host}/oidc/.well-known/oauth-authorization-server`);
  } catch (err) {
    throw new HttpError(
      502,
      'WORKSPACE_UNREACHABLE',
      `No OAuth server answered at ${host}/oidc: ${(err as Error).message}`,
    );
  }
  return new issuer.Client({ client_id: clientId, token_endpoint_auth_method: 'none', redirect_uris: [redirectUri] });
}

const redirectOf = (req: Request, configured: string | null) =>
  configured ?? `${req.protocol}://${req.get('host')}/api/auth/oauth-callback`;

const save = (req: Request) =>
  new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));

/**
 * OAuth user login (U2M, authorization code with PKCE S256) through openid-client: `oauth-login` answers the
 * workspace's authorize URL and keeps the verifier and state in the session; the browser comes back to
 * `oauth-callback`, which exchanges the code, checks the token with SCIM `Me` and starts a fresh session.
 */
export const oauthRoutes = defineRoutes({
  name: 'auth-oauth',
  tags: ['auth'],
  routes: [
    route({
      method: 'post',
      path: '/auth/oauth-login',
      summary: 'Start an OAuth user login: the authorize URL to open in the browser (PKCE; state kept in the session)',
      security: [],
      request: { body: OAuthLoginBodySchema },
      response: { description: 'Where to send the browser', schema: OAuthLoginSchema },
      errors: { 502: 'The workspace has no OAuth server answering' },
      handler: async ({ deps, req, input: { body } }) => {
        let host: string;
        try {
          host = normalizeHost(body.host);
        } catch (err) {
          throw new HttpError(400, 'VALIDATION_ERROR', (err as Error).message, [
            { path: 'body.host', message: (err as Error).message },
          ]);
        }
        const redirect_uri = redirectOf(req, deps.config.auth.oauth_redirect_url);
        const client = await clientFor(host, deps.config.auth.oauth_client_id, redirect_uri);
        const { generators } = oidc();
        const code_verifier = generators.codeVerifier();
        const state = generators.state();
        const auth_url = client.authorizationUrl({
          scope: SCOPE,
          redirect_uri,
          state,
          code_challenge: generators.codeChallenge(code_verifier),
          code_challenge_method: 'S256',
        });
        req.session.oauthPending = { host, state, code_verifier, redirect_uri, started_at: new Date().toISOString() };
        await save(req);
        return { auth_url, state, redirect_uri };
      },
    }),
    route({
      method: 'get',
      path: '/auth/oauth-callback',
      summary: 'Where the workspace sends the browser back: exchanges the code (with the PKCE verifier) and signs in',
      security: [],
      request: { query: OAuthCallbackQuerySchema },
      response: { description: 'Signed in', schema: AuthStatusSchema },
      errors: { 400: 'No login pending, state mismatch, or the workspace refused', 401: 'The token was refused' },
      handler: async ({ deps, req, input: { query } }) => {
        const pending = req.session?.oauthPending;
        const refuse = (message: string, path = 'query.state') =>
          new HttpError(400, 'VALIDATION_ERROR', message, [{ path, message }]);
        if (!pending) throw refuse('no OAuth login is pending in this session; start with POST /api/auth/oauth-login');
        if (Date.now() - Date.parse(pending.started_at) > PENDING_MS) {
          delete req.session.oauthPending;
          throw refuse('the OAuth login took longer than 10 minutes; start again');
        }
        if (query.error)
          throw refuse(`the workspace refused: ${query.error} ${query.error_description ?? ''}`.trim(), 'query.error');
        if (!query.code) throw refuse('code is missing', 'query.code');
        if (query.state !== pending.state) throw refuse('state does not match the pending login');
        const client = await clientFor(pending.host, deps.config.auth.oauth_client_id, pending.redirect_uri);
        let access: string;
        try {
          const tokens = await client.oauthCallback(
            pending.redirect_uri,
            { code: query.code, state: query.state },
            { state: pending.state, code_verifier: pending.code_verifier },
          );
          if (!tokens.access_token) throw new Error('no access_token in the answer');
          access = tokens.access_token;
        } catch (err) {
          throw refuse(`the code exchange failed: ${(err as Error).message}`, 'query.code');
        }
        const me = await whoAmI(pending.host, { type: 'pat', token: access });
        await establish(req, { ...me, auth_method: 'oauth-u2m', credentials: { token: access } });
        return statusOf(req, deps.config);
      },
    }),
  ],
});
