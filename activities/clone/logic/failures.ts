import { ApplicationFailure, TemporalFailure } from '@temporalio/common';
import { isPlatformError, type PlatformErrorCode } from '../../../platform/errors';

/**
 * The one failure vocabulary: the `type` of every ApplicationFailure an activity fails with for a platform
 * error, the `errorType` the clone engine records for a failed table, and the names retry policies list.
 */
export const FAILURE_TYPES = {
  NOT_FOUND: 'NotFound',
  ALREADY_EXISTS: 'AlreadyExists',
  PERMISSION_DENIED: 'PermissionDenied',
  CONFLICT: 'Conflict',
  INVALID_INPUT: 'InvalidInput',
  INVALID_WAREHOUSE: 'InvalidWarehouse',
  DEADLINE_EXCEEDED: 'DeadlineExceeded',
  CANCELED: 'Canceled',
  TRANSIENT: 'Transient',
} as const satisfies Record<PlatformErrorCode, string>;

export type FailureType = (typeof FAILURE_TYPES)[PlatformErrorCode];

/**
 * Failures that retrying cannot fix (missing object, bad definition or warehouse, permission, a lost race the
 * caller must look at). Activities fail with these at once, and every workflow retry policy lists them.
 */
export const NON_RETRYABLE_FAILURE_TYPES: readonly FailureType[] = [
  FAILURE_TYPES.NOT_FOUND,
  FAILURE_TYPES.ALREADY_EXISTS,
  FAILURE_TYPES.PERMISSION_DENIED,
  FAILURE_TYPES.CONFLICT,
  FAILURE_TYPES.INVALID_INPUT,
  FAILURE_TYPES.INVALID_WAREHOUSE,
  FAILURE_TYPES.DEADLINE_EXCEEDED,
  FAILURE_TYPES.CANCELED,
];

/** The vocabulary's name for a platform error; null for anything else. */
export function failureTypeOf(err: unknown): FailureType | null {
  return isPlatformError(err) ? FAILURE_TYPES[err.code] : null;
}

export function isNonRetryableType(type: string | null | undefined): boolean {
  return !!type && (NON_RETRYABLE_FAILURE_TYPES as readonly string[]).includes(type);
}

/** A platform error that retrying may fix (network, throttling, HTTP 429/5xx). */
export function isTransientFailure(err: unknown): boolean {
  const type = failureTypeOf(err);
  return type !== null && !isNonRetryableType(type);
}

/** Left alone: already a Temporal failure (ApplicationFailure, CancelledFailure, …) or an abort on cancellation. */
function passesThrough(err: unknown): boolean {
  return err instanceof TemporalFailure || (err instanceof Error && err.name === 'AbortError');
}

export interface FailureContext {
  /** The activity attempt that failed, recorded as the failure's first detail. */
  attempt?: number;
}

/**
 * Turns any thrown error into the ApplicationFailure an activity fails with. A platform error gets its
 * vocabulary type and is non-retryable unless transient (a transient one carries the remote's Retry-After as
 * the next delay). Any other error stays retryable under its class name, as Temporal itself would report it.
 * Temporal failures and aborts pass through untouched, so cancellation still reads as cancellation.
 */
export function toApplicationFailure(err: unknown, ctx: FailureContext = {}): Error {
  if (passesThrough(err)) return err as Error;
  const details = ctx.attempt === undefined ? undefined : [{ attempt: ctx.attempt }];
  const error = err instanceof Error ? err : undefined;
  const cause = error?.cause instanceof Error ? error.cause : undefined;
  const type = failureTypeOf(err) ?? error?.constructor?.name ?? 'Error';
  const nonRetryable = isNonRetryableType(type);
  const retryAfter = isPlatformError(err) && !nonRetryable ? err.retryAfterSeconds : undefined;
  const failure = ApplicationFailure.create({
    type,
    message: error?.message ?? String(err),
    nonRetryable,
    details,
    nextRetryDelay: retryAfter ? `${retryAfter}s` : undefined,
    cause,
  });
  if (error?.stack) failure.stack = error.stack;
  return failure;
}
