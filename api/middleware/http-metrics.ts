import type { Request, RequestHandler } from 'express';
import { recordHttpRequest } from '../../platform/observability/metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The label for a request no route answered (a 404, or a 401/400 given before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Remembers the route TEMPLATE that answers (`/api/clone/:jobId`), never the raw path: one series per route,
 * whatever ids clients send. Express sets `req.route` while the router's mount is still `req.baseUrl`, and
 * restores `baseUrl` once the router is left, so both are read at that moment.
 */
function captureRouteTemplate(req: Request): () => string {
  let template = UNMATCHED_ROUTE;
  let route: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: { path?: unknown } | undefined) {
      route = value;
      if (value && typeof value.path === 'string') {
        template = `${req.baseUrl}${value.path}`.replace(/(.)\/+$/, '$1') || '/';
      }
    },
  });
  return () => template;
}

/**
 * Counts every answered request in lakeward_http_requests_total{method,route,status} and its latency in
 * lakeward_http_request_duration_seconds. Mounted first, so answers given before routing (401, CORS preflights,
 * 400 bad JSON) count too; a connection closed before the answer ends is not an answer and does not count.
 */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const template = captureRouteTemplate(req);
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      recordHttpRequest(method, template(), res.statusCode, seconds);
    });
    next();
  };
}
