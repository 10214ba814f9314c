import { activityInfo, ApplicationFailure, CancelledFailure } from '@temporalio/activity';
import { isPlatformError } from '../../platform/errors';

/**
 * Classifies an activity's error at the source. Logical platform errors (missing object, bad input,
 * invalid warehouse, permission) fail at once: a non-retryable ApplicationFailure typed with the error
 * code. Transient ones stay retryable and carry the remote's Retry-After as the next delay. Unknown
 * errors (a dropped store connection, a bug) are left to the retry policy.
 */
export function classifyFailure(err: unknown): unknown {
  if (err instanceof ApplicationFailure || err instanceof CancelledFailure) return err;
  const attempt = safeAttempt();
  if (isPlatformError(err)) {
    return ApplicationFailure.create({
      type: err.code,
      message: err.message,
      nonRetryable: !err.retryable,
      details: [{ attempt }],
      nextRetryDelay: err.retryable && err.retryAfterSeconds ? `${err.retryAfterSeconds}s` : undefined,
      cause: err,
    });
  }
  return err;
}

function safeAttempt(): number {
  try {
    return activityInfo().attempt;
  } catch {
    return 1;
  }
}

/** Runs an activity body with its failures classified. */
export async function classified<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw classifyFailure(err);
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A platform error that retrying cannot fix (missing object, bad definition, permission). */
export function isLogicalError(err: unknown): boolean {
  return isPlatformError(err) && !err.retryable;
}
