import { activityInfo, CompleteAsyncError } from '@temporalio/activity';
import { isPlatformError } from '../../platform/errors';
import { isNonRetryableType, failureTypeOf, toApplicationFailure } from './logic/failures';

/**
 * Classifies an activity's error at the source, with the one vocabulary of logic/failures: a logical platform
 * error fails at once as a non-retryable ApplicationFailure typed `PermissionDenied`, `NotFound`, …; a
 * transient one stays retryable; Temporal failures (cancellation included) pass through untouched.
 */
export function classifyFailure(err: unknown): unknown {
  if (err instanceof CompleteAsyncError) return err;
  return toApplicationFailure(err, { attempt: safeAttempt() });
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any activity signature, kept as it is
type ActivityMap = Record<string, (...args: any[]) => Promise<unknown>>;

/** The same activities (names and signatures unchanged), each failing with a classified failure. */
export function classifyActivities<T extends ActivityMap>(activities: T): T {
  const out: ActivityMap = {};
  for (const [name, fn] of Object.entries(activities)) {
    out[name] = (...args: unknown[]) => classified(() => fn(...args));
  }
  return out as T;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A platform error that retrying cannot fix (missing object, bad definition, permission). */
export function isLogicalError(err: unknown): boolean {
  return isPlatformError(err) && isNonRetryableType(failureTypeOf(err));
}
