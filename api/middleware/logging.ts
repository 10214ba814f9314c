import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

/**
 * One log line per request. Only method, path, status and timing are logged: headers never are, so
 * API keys and per-request workspace tokens (X-Databricks-Token / X-Platform-Token) cannot leak into logs.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => String(res.getHeader('X-Request-Id') ?? ''),
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: stripQuery(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
  });
}

/**
 * Query strings may carry tokens (a browser's WebSocket sends its key as `?api_key=`); the path is enough to
 * follow a request. Every log line that names a request URL goes through this.
 */
export function stripQuery(url: string): string {
  const i = url.indexOf('?');
  return i === -1 ? url : url.slice(0, i);
}
