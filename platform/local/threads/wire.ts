import * as errors from '../../errors';
import type { LocalWorkspaceOptions } from '../workspace-context';

/** A port call sent to a local lakehouse thread. */
export interface ThreadCall {
  id: number;
  opts: LocalWorkspaceOptions;
  method: string;
  args: unknown[];
}

/** Its answer: the method's value (structured-cloned), or the error it threw. */
export type ThreadAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

/** An error as it crosses the thread boundary: what callers read of it (class, code, message, fs fields). */
export interface WireError {
  name: string;
  message: string;
  stack?: string;
  code?: unknown;
  retryAfterSeconds?: number;
  errno?: number;
  syscall?: string;
  path?: string;
  cause?: WireError;
}

type PlatformErrorClass = new (message: string, options?: { cause?: unknown }) => errors.PlatformError;

/** The platform's error classes by name: a NotFoundError thrown in a thread is a NotFoundError here. */
const PLATFORM_ERRORS: Record<string, PlatformErrorClass> = {
  NotFoundError: errors.NotFoundError,
  AlreadyExistsError: errors.AlreadyExistsError,
  PermissionDeniedError: errors.PermissionDeniedError,
  ConflictError: errors.ConflictError,
  InvalidInputError: errors.InvalidInputError,
  InvalidWarehouseError: errors.InvalidWarehouseError,
  TransientError: errors.TransientError,
  DeadlineExceededError: errors.DeadlineExceededError,
  StatementCanceledError: errors.StatementCanceledError,
};

export function errorToWire(err: unknown, depth = 0): WireError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const e = err as Error & Partial<Omit<WireError, 'cause'>>;
  const out: WireError = { name: e.name, message: e.message, stack: e.stack };
  for (const k of ['code', 'retryAfterSeconds', 'errno', 'syscall', 'path'] as const)
    if (e[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = e[k];
  if (e.cause !== undefined && depth < 8) out.cause = errorToWire(e.cause, depth + 1);
  return out;
}

/** The error again, of its platform class when it had one (a Node error keeps its code, errno, syscall, path). */
export function errorFromWire(w: WireError): Error {
  const cause = w.cause ? errorFromWire(w.cause) : undefined;
  const Platform = PLATFORM_ERRORS[w.name];
  let err: Error;
  if (Platform === errors.TransientError) {
    err = new errors.TransientError(w.message, { cause, retryAfterSeconds: w.retryAfterSeconds });
  } else if (Platform) {
    err = new Platform(w.message, cause !== undefined ? { cause } : undefined);
  } else {
    err = new Error(w.message, cause !== undefined ? { cause } : undefined);
    err.name = w.name;
    for (const k of ['code', 'errno', 'syscall', 'path'] as const)
      if (w[k] !== undefined) (err as unknown as Record<string, unknown>)[k] = w[k];
  }
  if (w.stack) err.stack = w.stack;
  return err;
}
