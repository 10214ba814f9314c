import {
  AlreadyExistsError,
  ConflictError,
  InvalidInputError,
  InvalidWarehouseError,
  NotFoundError,
  PermissionDeniedError,
  PlatformError,
  TransientError,
} from '../errors';
import { redact } from './auth/secret';

/**
 * Turns driver and HTTP failures into the port's typed errors, so activities retry only transient
 * faults. Messages are redacted: a token echoed back by a proxy or a driver must not reach logs.
 */
/** Transient even when the server reports them as a statement error. */
const SERVER_TRANSIENT = [
  /TEMPORARILY_UNAVAILABLE/i,
  /(status code|HTTP):? ?(429|500|502|503|504)\b/i,
  /too many requests/i,
  /throttl/i,
  /rate limit/i,
  /REQUEST_LIMIT_EXCEEDED/,
];
const TRANSPORT = [
  /ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|EAI_AGAIN|ENOTFOUND|ENETUNREACH|socket hang up/i,
  /timed? ?out/i,
  /network/i,
  /service unavailable/i,
  /fetch failed/i,
];
const INVALID_WAREHOUSE = [
  /warehouse[^.]*\b(does not exist|not found|was deleted|is deleted|invalid)/i,
  /invalid (sql )?warehouse/i,
  /no such warehouse/i,
];
const NOT_FOUND = [
  /\b[A-Z_]*NOT_FOUND\b/,
  /\b[A-Z_]*DOES_NOT_EXIST\b/,
  /NO_SUCH_[A-Z_]+/,
  /UNRESOLVED_ROUTINE/,
  /does not exist/i,
];
const ALREADY_EXISTS = [/\b[A-Z_]*ALREADY_EXISTS\b/, /already exists/i];
const PERMISSION = [
  /PERMISSION_DENIED/,
  /INSUFFICIENT_PERMISSIONS/,
  /UNAUTHORIZED/i,
  /(status code|HTTP):? ?(401|403)\b/i,
  /does not have [A-Z ]+ privilege/i,
  /AuthenticationError/,
  /invalid access token/i,
  /forbidden/i,
];
const CONFLICT = [
  /DELTA_CONCURRENT_/,
  /Concurrent[A-Za-z]*Exception/,
  /DELTA_METADATA_CHANGED/,
  /DELTA_PROTOCOL_CHANGED/,
];

type Ctor = new (message: string, options?: { cause?: unknown }) => PlatformError;
const ORDER: [RegExp[], Ctor][] = [
  [INVALID_WAREHOUSE, InvalidWarehouseError],
  [PERMISSION, PermissionDeniedError],
  [CONFLICT, ConflictError],
  [ALREADY_EXISTS, AlreadyExistsError],
  [NOT_FOUND, NotFoundError],
];

/** Driver error classes do not set `name`, so the constructor tells which one it is. */
function kindOf(err: unknown): string {
  return (err as object | null)?.constructor?.name ?? '';
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return `${kindOf(err) || err.name}: ${err.message}`;
  return String(err);
}

/** Errors the server reported about the statement itself (it ran, or failed to compile). */
function isServerReported(err: unknown, text: string): boolean {
  const e = err as { errorCode?: string };
  return (
    (kindOf(err) === 'OperationStateError' && e.errorCode === 'ERROR') ||
    kindOf(err) === 'StatusError' ||
    /\[[A-Z][A-Z0-9_.]+\]|SQLSTATE|ParseException|AnalysisException/.test(text)
  );
}

export function classifySqlError(err: unknown, secrets: readonly string[], what: string): PlatformError {
  if (err instanceof PlatformError) return err;
  const text = redact(messageOf(err), secrets);
  const message = `${what}: ${text}`;
  const e = err as { name?: string; errorCode?: string; statusCode?: unknown };
  if (typeof e?.statusCode === 'number') {
    const status = e.statusCode;
    // The Thrift endpoint is the warehouse's HTTP path: 404 there means the warehouse id is wrong.
    if (status === 404) return new InvalidWarehouseError(`${what}: SQL warehouse not found (HTTP 404)`);
    if (status === 401 || status === 403) return new PermissionDeniedError(message);
    if (status === 429 || status >= 500) return new TransientError(message);
  }
  for (const [patterns, ErrorType] of ORDER) {
    if (patterns.some((p) => p.test(text))) return new ErrorType(message);
  }
  if (kindOf(err) === 'OperationStateError' && (e.errorCode === 'TIMEOUT' || e.errorCode === 'CANCELED')) {
    return new TransientError(message);
  }
  if (SERVER_TRANSIENT.some((p) => p.test(text))) return new TransientError(message);
  if (isServerReported(err, text)) return new InvalidInputError(message);
  if (TRANSPORT.some((p) => p.test(text)) || kindOf(err) === 'RetryError') return new TransientError(message);
  // Other faults below the statement level (driver, transport) are retried a bounded number of times by callers.
  return new TransientError(message);
}

/** Error body of the Databricks REST API: `{ error_code, message }`. */
export interface ApiErrorBody {
  error_code?: string;
  message?: string;
}

export function classifyHttpError(
  status: number,
  body: ApiErrorBody,
  what: string,
  secrets: readonly string[],
  retryAfterSeconds?: number,
): PlatformError {
  const detail = redact([body.error_code, body.message].filter(Boolean).join(': ') || `HTTP ${status}`, secrets);
  const message = `${what}: HTTP ${status} ${detail}`;
  const code = body.error_code ?? '';
  if (status === 429 || status >= 500 || code === 'TEMPORARILY_UNAVAILABLE' || code === 'REQUEST_LIMIT_EXCEEDED') {
    return new TransientError(message, { retryAfterSeconds });
  }
  if (status === 401 || status === 403 || code === 'PERMISSION_DENIED') return new PermissionDeniedError(message);
  if (status === 404 || code === 'RESOURCE_DOES_NOT_EXIST' || code === 'NOT_FOUND') return new NotFoundError(message);
  if (code === 'RESOURCE_ALREADY_EXISTS' || code === 'ALREADY_EXISTS') return new AlreadyExistsError(message);
  if (status === 409) return new ConflictError(message);
  return new InvalidInputError(message);
}
