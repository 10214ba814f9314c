import type { Request } from 'express';
import type { Config } from '../../config/load';
import { resolveAuth, type DatabricksAuth } from '../../platform/databricks/auth/credentials';
import { RestClient } from '../../platform/databricks/rest/http';
import { WorkspaceApi } from '../../platform/databricks/rest/workspace-api';
import { isPlatformError } from '../../platform/errors';
import type { AuthMethod, AuthStatus } from '../../schemas/auth';
import { HttpError } from '../middleware/http-error';
import type { SignedIn } from './session';

/**
 * Checks credentials the way a user would notice: SCIM `Me` on the workspace with them. A refusal (401/403, a
 * bad client secret) is a 401 naming the method; an unreachable workspace is a 502. Messages never hold secrets
 * (the platform redacts them).
 */
export async function whoAmI(
  host: string,
  auth: DatabricksAuth,
): Promise<{ host: string; user: string; display_name: string | null }> {
  let resolved;
  try {
    resolved = await resolveAuth(host, auth);
  } catch (err) {
    throw new HttpError(400, 'VALIDATION_ERROR', (err as Error).message, [{ path: 'body.host', message: 'invalid' }]);
  }
  const api = new WorkspaceApi(new RestClient(resolved.host, resolved.tokens, { maxAttempts: 1, timeoutMs: 30_000 }));
  try {
    const me = await api.currentUser();
    return { host: resolved.host, user: me.userName, display_name: me.displayName ?? null };
  } catch (err) {
    if (isPlatformError(err) && ['PERMISSION_DENIED', 'INVALID_INPUT', 'NOT_FOUND'].includes(err.code)) {
      throw new HttpError(401, 'UNAUTHORIZED', `The workspace refused the ${auth.type} credentials: ${err.message}`);
    }
    const reason = err instanceof Error ? err.message : String(err);
    throw new HttpError(502, 'WORKSPACE_UNREACHABLE', `Could not reach ${resolved.host}: ${reason}`);
  }
}

/** Starts a fresh session (a new id, so a planted cookie is never promoted) holding who signed in. */
export async function establish(req: Request, who: Omit<SignedIn, 'signed_in_at'>): Promise<void> {
  await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
  req.session.workspace = { ...who, signed_in_at: new Date().toISOString() };
  await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

/** Status from the session; without one the embedded stack reports `local`, a Databricks server not signed in. */
export function statusOf(req: Request, config: Config): AuthStatus {
  const who = req.session?.workspace;
  if (who) {
    const idle = req.session.cookie.expires ?? new Date(Date.now() + config.auth.idle_hours * 3_600_000);
    const absolute =
      req.session.absoluteExpiresAt ??
      new Date(Date.parse(who.signed_in_at) + config.auth.absolute_days * 86_400_000).toISOString();
    return {
      authenticated: true,
      user: who.user,
      host: who.host,
      auth_method: who.auth_method,
      session: { idle_expires_at: new Date(idle).toISOString(), absolute_expires_at: absolute },
    };
  }
  if (config.workspace.kind === 'local') {
    return {
      authenticated: true,
      user: 'local',
      host: config.workspace.root,
      auth_method: 'local' as AuthMethod,
      session: null,
    };
  }
  return { authenticated: false, user: null, host: config.workspace.host ?? null, auth_method: null, session: null };
}
