import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

/**
 * One log line per request, when its answer has been sent (`request completed`, or `request errored` for a 5xx)
 * at info, warn for 4xx and error for 5xx, or `request aborted` when the client left first. Only the request id,
 * method, path, status and time taken are logged: headers never are, so API keys and per-request workspace tokens
 * (X-Databricks-Token / X-Platform-Token) cannot leak into logs. The line carries the request's job fields and
 * trace id through the logger's mixin. Written without a child logger or serializers per request, because every
 * request pays for it (pino-http's fields and messages, at a fraction of its cost).
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const line = () => ({
      req: { id: String(res.getHeader('X-Request-Id') ?? ''), method: req.method, url: stripQuery(req.originalUrl) },
      res: { statusCode: res.statusCode },
      responseTime: Math.round(performance.now() - started),
    });
    const onFinish = () => {
      res.off('close', onClose);
      const status = res.statusCode;
      if (status >= 500) logger.error(line(), 'request errored');
      else if (status >= 400) logger.warn(line(), 'request completed');
      else logger.info(line(), 'request completed');
    };
    const onClose = () => {
      res.off('finish', onFinish);
      logger.warn(line(), 'request aborted');
    };
    res.once('finish', onFinish);
    res.once('close', onClose);
    next();
  };
}

/**
 * Query strings may carry tokens (a browser's WebSocket sends its key as `?api_key=`); the path is enough to
 * follow a request. Every log line that names a request URL goes through this.
 */
export function stripQuery(url: string): string {
  const i = url.indexOf('?');
  return i === -1 ? url : url.slice(0, i);
}
