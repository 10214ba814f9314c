/**
 * Typed platform errors. Every adapter throws these so that callers (activities, API) can decide
 * between "retry" (TransientError) and "fail at once" (everything else) without knowing the adapter.
 */
export type PlatformErrorCode =
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'PERMISSION_DENIED'
  | 'CONFLICT'
  | 'INVALID_INPUT'
  | 'INVALID_WAREHOUSE'
  | 'DEADLINE_EXCEEDED'
  | 'CANCELED'
  | 'TRANSIENT';

export class PlatformError extends Error {
  readonly code: PlatformErrorCode;
  /** True only for transient faults (network, throttling, 5xx): safe to retry with backoff. */
  readonly retryable: boolean;
  /** Seconds the remote asked us to wait (HTTP Retry-After), when known. */
  readonly retryAfterSeconds?: number;

  constructor(code: PlatformErrorCode, message: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = new.target.name;
    this.code = code;
    this.retryable = code === 'TRANSIENT';
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export class NotFoundError extends PlatformError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('NOT_FOUND', message, options);
  }
}
export class AlreadyExistsError extends PlatformError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ALREADY_EXISTS', message, options);
  }
}
export class PermissionDeniedError extends PlatformError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('PERMISSION_DENIED', message, options);
  }
}
/** A concurrent writer won (for example two commits racing for the same Delta version). */
export class ConflictError extends PlatformError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('CONFLICT', message, options);
  }
}
export class InvalidInputError extends PlatformError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INVALID_INPUT', message, options);
  }
}
/** The SQL warehouse id is missing, unknown or unusable: never retried. */
export class InvalidWarehouseError extends PlatformError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INVALID_WAREHOUSE', message, options);
  }
}
export class TransientError extends PlatformError {
  constructor(message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super('TRANSIENT', message, options);
  }
}

export function isPlatformError(err: unknown): err is PlatformError {
  return err instanceof PlatformError;
}

/** A statement ran past its timeout and was stopped. */
export class DeadlineExceededError extends PlatformError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('DEADLINE_EXCEEDED', message, options);
  }
}

/** A statement was stopped because its caller cancelled it. */
export class StatementCanceledError extends PlatformError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('CANCELED', message, options);
  }
}
