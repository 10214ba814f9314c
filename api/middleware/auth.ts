import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { HttpError } from './http-error';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Paths answered without a key: the health report, which load balancers and the web UI's status light poll
 * before any key is entered. Its body carries versions and reachability only (store URLs are redacted).
 * The OpenAPI document and its reference page (`/api/docs` and its assets) describe the API and hold no data.
 */
const OPEN_PATHS = new Set(['/api/health', '/api/health/ready', '/api/openapi.json', '/api/docs']);
const OPEN_PREFIXES = ['/api/docs/'];

/** Express routes ignore case and a trailing slash, so the open-path check must too (and nothing more). */
const isOpen = (path: string) => {
  const p = path.toLowerCase().replace(/\/+$/, '');
  return OPEN_PATHS.has(p) || OPEN_PREFIXES.some((prefix) => p.startsWith(prefix));
};

/**
 * Optional API key: with a key configured every request except OPEN_PATHS must send
 * `Authorization: Bearer <key>`; without one, authentication is off. Keys are compared as SHA-256 digests
 * with timingSafeEqual, so neither the comparison time nor a length check reveals how much of a guess was right.
 */
export function apiKeyAuth(apiKey: string | null): RequestHandler {
  if (!apiKey) return (_req, _res, next) => next();
  const expected = digest(apiKey);
  return (req, res, next) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && isOpen(req.path)) {
      next();
      return;
    }
    const header = req.get('authorization');
    const match = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
    res.setHeader('WWW-Authenticate', 'Bearer realm="lakeward"');
    if (!match) {
      throw new HttpError(401, 'UNAUTHORIZED', 'Missing API key: send the header Authorization: Bearer <API_KEY>', [
        { path: 'headers.authorization', message: header ? 'expected the Bearer scheme' : 'required' },
      ]);
    }
    if (!timingSafeEqual(digest(match[1]), expected)) {
      throw new HttpError(401, 'UNAUTHORIZED', 'Invalid API key', [
        { path: 'headers.authorization', message: 'the key does not match the server key' },
      ]);
    }
    res.removeHeader('WWW-Authenticate');
    next();
  };
}
