import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import { isPlatformError, type PlatformErrorCode } from '../../platform/errors';
import type { ErrorBody, ErrorDetail } from '../../schemas/common';
import { HttpError } from './http-error';
import { requestIdOf } from './request-id';
import { zodDetails } from './validate';

const PLATFORM_STATUS: Record<PlatformErrorCode, number> = {
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  CONFLICT: 409,
  INVALID_INPUT: 400,
  PERMISSION_DENIED: 403,
  INVALID_WAREHOUSE: 400,
  DEADLINE_EXCEEDED: 504,
  CANCELED: 409,
  TRANSIENT: 503,
};

/** Temporal client errors matched by name, so a second copy of the SDK in the tree cannot break the match. */
const TEMPORAL_ERRORS: Record<string, [number, string]> = {
  WorkflowNotFoundError: [404, 'NOT_FOUND'],
  WorkflowExecutionAlreadyStartedError: [409, 'ALREADY_EXISTS'],
  ScheduleNotFoundError: [404, 'NOT_FOUND'],
  ScheduleAlreadyRunning: [409, 'ALREADY_EXISTS'],
};

export function sendError(res: Response, status: number, code: string, message: string, details: ErrorDetail[] = []) {
  const body: ErrorBody = { error: { code, message, details }, request_id: requestIdOf(res) };
  res.status(status).json(body);
}

/** Unknown routes get the same JSON body as every other error. */
export function notFoundHandler(): RequestHandler {
  return (req, res) => sendError(res, 404, 'NOT_FOUND', `No route for ${req.method} ${req.path}`);
}

/**
 * The one error middleware. Express 5 forwards rejected promises from async handlers here; routes throw
 * typed errors and never build error bodies themselves.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const [status, code, message, details] = classify(err);
    if (status >= 500) {
      logger.error({ err, request_id: requestIdOf(res), method: req.method, path: req.path }, 'request failed');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    sendError(res, status, code, message, details);
  };
}

type Classified = [number, string, string, ErrorDetail[]];

function classify(err: unknown): Classified {
  if (err instanceof HttpError) return [err.status, err.code, err.message, err.details];
  if (err instanceof ZodError) {
    const details = zodDetails(err);
    return [
      400,
      'VALIDATION_ERROR',
      `Invalid input: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`,
      details,
    ];
  }
  if (isPlatformError(err)) return [PLATFORM_STATUS[err.code], err.code, err.message, []];
  const e = err as { name?: string; message?: string; type?: string; status?: number; expose?: boolean };
  const temporal = e?.name ? TEMPORAL_ERRORS[e.name] : undefined;
  if (temporal) return [temporal[0], temporal[1], e.message ?? e.name!, []];
  // body-parser errors carry `type` and an HTTP status meant to be shown to the client.
  if (e?.type === 'entity.parse.failed') return [400, 'INVALID_JSON', 'The request body is not valid JSON', []];
  if (e?.type === 'entity.too.large')
    return [413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than the limit', []];
  if (e?.expose && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return [e.status, 'BAD_REQUEST', e.message ?? 'Bad request', []];
  }
  if (e?.name === 'ServiceError' || e?.name === 'TransportError') {
    return [503, 'TEMPORAL_UNAVAILABLE', 'Temporal is not reachable; retry shortly', []];
  }
  return [500, 'INTERNAL_ERROR', 'Internal server error; the request id identifies it in the server log', []];
}
