import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Config } from '../../config/load';
import { roleAtLeast, type Caller, type Role } from '../../schemas/governance';
import { HttpError } from './http-error';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Paths answered without a key: the health report, which load balancers and the web UI's status light poll
 * before any key is entered. Its body carries versions and reachability only (store URLs are redacted).
 * The OpenAPI document, its reference page (`/api/docs` and its assets) and its list of operations
 * (`/api/web/operations`) describe the API and hold no data.
 */
const OPEN_PATHS = new Set([
  '/api/health',
  '/api/health/ready',
  '/api/openapi.json',
  '/api/docs',
  '/api/web/operations',
]);
const OPEN_PREFIXES = ['/api/docs/'];

/** Signing in and out of a workspace: open for any method (a browser has no API key before it signs in). */
const SIGN_IN_PATHS = new Set([
  '/api/auth/auto-login',
  '/api/auth/login',
  '/api/auth/oauth-login',
  '/api/auth/oauth-callback',
  '/api/auth/logout',
  '/api/auth/status',
  '/api/auth/service-principal',
]);
export const isSignInPath = (path: string) => SIGN_IN_PATHS.has(path.toLowerCase().replace(/\/+$/, ''));

/** Express routes ignore case and a trailing slash, so the open-path check must too (and nothing more). */
export const isOpenPath = (path: string) => {
  const p = path.toLowerCase().replace(/\/+$/, '');
  return OPEN_PATHS.has(p) || OPEN_PREFIXES.some((prefix) => p.startsWith(prefix));
};

/** One configured key: its name (recorded as performed_by/created_by), secret and role. */
export interface ApiKeyEntry {
  name: string;
  key: string;
  role: Role;
}

/** Who calls when authentication is off (no key configured): everything is allowed, as before keys had roles. */
export const ANONYMOUS: Caller = Object.freeze({ name: 'anonymous', role: 'admin' });

/**
 * Every key the server accepts: `api_server.keys` and the single `api_key` (an admin key named after its
 * environment variable when it came from `api_key_env`, else `api_key`). Empty = authentication off.
 */
export function configuredKeys(server: Config['api_server']): ApiKeyEntry[] {
  const keys: ApiKeyEntry[] = server.keys.flatMap((k) => (k.key ? [{ name: k.name, key: k.key, role: k.role }] : []));
  if (server.api_key) keys.unshift({ name: server.api_key_env ?? 'api_key', key: server.api_key, role: 'admin' });
  return keys;
}

/** A keyring that compares a presented key with every configured one as SHA-256 digests (timing-safe). */
export function keyRing(keys: ApiKeyEntry[]) {
  const digests = keys.map((k) => ({ ...k, digest: digest(k.key) }));
  return {
    enabled: keys.length > 0,
    identify(presented: string | null): Caller | null {
      if (presented === null) return null;
      const given = digest(presented);
      let found: Caller | null = null;
      // Compare with every key (no early exit), so the time taken does not tell which key matched.
      for (const k of digests) if (timingSafeEqual(given, k.digest) && !found) found = { name: k.name, role: k.role };
      return found;
    },
  };
}
export type KeyRing = ReturnType<typeof keyRing>;

/** The Bearer token of a request (or, for WebSockets from browsers, `?api_key=` in the URL). */
export function presentedKey(req: IncomingMessage, url?: URL): string | null {
  const header = req.headers.authorization;
  const bearer = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  return bearer?.[1] ?? url?.searchParams.get('api_key') ?? null;
}

const CALLER = Symbol('lakeward.caller');
type WithCaller = Request & { [CALLER]?: Caller };

/**
 * The caller of a request, as the API key middleware identified it: the key's name and role, or `anonymous`
 * (admin) when authentication is off. Open paths (health, docs) called without a key have no caller: viewer.
 */
export function callerOf(req: Request): Caller {
  return (req as WithCaller)[CALLER] ?? { name: 'unauthenticated', role: 'viewer' };
}

const callerStorage = new AsyncLocalStorage<Caller>();

/**
 * The caller of the request being served, for code that has no `req` at hand (a service recording
 * `created_by`). Put `callerContext()` after the body parser. Outside a request: `unauthenticated` (viewer).
 */
export function currentCaller(): Caller {
  return callerStorage.getStore() ?? { name: 'unauthenticated', role: 'viewer' };
}

/** Makes `callerOf(req)` the `currentCaller()` of everything the rest of the request runs. */
export function callerContext(): RequestHandler {
  return (req, _res, next) => callerStorage.run(callerOf(req), next);
}

/**
 * API keys: with any key configured every request except OPEN_PATHS and SIGN_IN_PATHS must send
 * `Authorization: Bearer <key>` or carry a signed-in session's cookie; the matching key's name and role (else the
 * session's `session:<user>` and `auth.session_role`) become the request's caller (`callerOf`); without keys, authentication
 * is off and every caller is `anonymous` with the admin role.
 */
export function apiKeyAuth(
  keys: ApiKeyEntry[],
  /** A signed-in session's caller (api/auth/session.ts), used when no key is sent; a key always wins. */
  sessionCaller: (req: Request) => Caller | null = () => null,
): RequestHandler {
  const ring = keyRing(keys);
  if (!ring.enabled) {
    return (req, _res, next) => {
      (req as WithCaller)[CALLER] = ANONYMOUS;
      next();
    };
  }
  return (req, res, next) => {
    const header = req.get('authorization');
    const given = presentedKey(req);
    const caller = ring.identify(given) ?? (given === null ? sessionCaller(req) : null);
    if (caller) (req as WithCaller)[CALLER] = caller;
    if (((req.method === 'GET' || req.method === 'HEAD') && isOpenPath(req.path)) || isSignInPath(req.path)) {
      next();
      return;
    }
    if (caller && given === null) {
      next(); // a signed-in session
      return;
    }
    res.setHeader('WWW-Authenticate', 'Bearer realm="lakeward"');
    if (given === null) {
      throw new HttpError(401, 'UNAUTHORIZED', 'Missing API key: send the header Authorization: Bearer <API_KEY>', [
        { path: 'headers.authorization', message: header ? 'expected the Bearer scheme' : 'required' },
      ]);
    }
    if (!caller) {
      throw new HttpError(401, 'UNAUTHORIZED', 'Invalid API key', [
        { path: 'headers.authorization', message: 'the key does not match any server key' },
      ]);
    }
    res.removeHeader('WWW-Authenticate');
    next();
  };
}

/** 403 unless the caller's role is at least `need`; the body names the role needed and the caller's. */
export function assertRole(caller: Caller, need: Role): void {
  if (roleAtLeast(caller.role, need)) return;
  throw new HttpError(
    403,
    'FORBIDDEN',
    `This needs the ${need} role; the key ${caller.name} has the ${caller.role} role`,
    [{ path: 'headers.authorization', message: `requires role ${need} (or higher)` }],
  );
}

/** Express middleware form of `assertRole` for the request's caller. */
export function requireRole(need: Role): RequestHandler {
  return (req, _res, next) => {
    assertRole(callerOf(req), need);
    next();
  };
}
