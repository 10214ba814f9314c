import { createHmac } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import session from 'express-session';
import type { Config } from '../../config/load';
import type { WorkspaceSpec } from '../../platform/workspace-resolver';
import type { Caller } from '../../schemas/governance';
import type { AuthMethod } from '../../schemas/auth';
import { DrizzleSessionStore } from '../../store/auth/session-store';
import type { Store } from '../../store/db';
import { targetCipher, targetKey } from '../../store/targets/cipher';

/** Who signed in, to which workspace and how. Credentials live only here (encrypted at rest, never answered). */
export interface SignedIn {
  host: string;
  user: string;
  display_name: string | null;
  auth_method: AuthMethod;
  signed_in_at: string;
  credentials: {
    token?: string;
    client_id?: string;
    client_secret?: string;
    tenant_id?: string;
    profile?: string;
    config_file?: string;
  };
}

declare module 'express-session' {
  interface SessionData {
    workspace?: SignedIn;
    /** Set by the store: when the session ends however much it is used. */
    absoluteExpiresAt?: string;
  }
}

export const SESSION_COOKIE = 'lakeward.sid';

/** The session key: `auth.session_key`, else `targets.credentials_key`, else the key file in the data folder. */
function sessionKey(config: Config): Buffer {
  return targetKey({ configured: config.auth.session_key ?? config.targets.credentials_key, dataDir: config.data_dir });
}

/**
 * express-session with the drizzle store: an HttpOnly, SameSite=Lax cookie holding only the (signed) session id;
 * the idle lifetime rolls forward on every response, the absolute one is kept by the store. Nothing is saved
 * until someone signs in.
 */
export function sessionMiddleware(config: Config, store: Store): RequestHandler {
  const key = sessionKey(config);
  const idleMs = config.auth.idle_hours * 3_600_000;
  const absoluteMs = config.auth.absolute_days * 86_400_000;
  return session({
    name: SESSION_COOKIE,
    secret: createHmac('sha256', key).update('lakeward session cookie').digest('base64'),
    store: new DrizzleSessionStore(store.db, targetCipher(key), { idleMs, absoluteMs }),
    resave: false,
    saveUninitialized: false,
    rolling: true,
    unset: 'destroy',
    cookie: { httpOnly: true, sameSite: 'lax', secure: config.auth.cookie_secure, maxAge: idleMs, path: '/' },
  });
}

export const signedIn = (req: Request): SignedIn | null => req.session?.workspace ?? null;

/**
 * The caller of a signed-in session when API keys are on and no key was sent: `session:<user>` with
 * `auth.session_role` (default viewer). A key always wins; with keys off every caller is the anonymous admin.
 */
export function sessionCaller(config: Config): (req: Request) => Caller | null {
  return (req) => {
    const who = signedIn(req);
    return who ? { name: `session:${who.user}`, role: config.auth.session_role } : null;
  };
}

/** The workspace a signed-in session names, as a spec the resolver opens (and caches). */
export function sessionWorkspaceSpec(req: Request, config: Config): WorkspaceSpec | null {
  const who = signedIn(req);
  if (!who) return null;
  const c = who.credentials;
  const warehouseId = config.workspace.warehouse_id ?? config.clone.warehouse_id;
  const base = { kind: 'databricks' as const, host: who.host, warehouseId };
  if (c.token) return { ...base, authMethod: 'token', token: c.token };
  if (c.client_id && c.client_secret) {
    return {
      ...base,
      authMethod: 'service_principal',
      clientId: c.client_id,
      clientSecret: c.client_secret,
      tenantId: c.tenant_id ?? null,
    };
  }
  return { ...base, authMethod: 'profile', profile: c.profile ?? null };
}
