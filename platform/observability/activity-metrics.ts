import { CompleteAsyncError, type Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { ActivityInterceptors, WorkerOptions } from '@temporalio/worker';
import { recordActivityAttempt, recordActivityFailure } from './metrics';

/**
 * The failure type an activity attempt failed with: the ApplicationFailure's `type`, which for every Lakeward
 * activity is a name from the one failure vocabulary (activities/clone/logic/failures: NotFound, PermissionDenied,
 * Transient, …; an unclassified error keeps its class name); `Cancelled` for a cancellation.
 */
export function failureTypeLabel(err: unknown): string {
  if (err instanceof ApplicationFailure) return err.type ?? 'Error';
  if (err instanceof CancelledFailure) return 'Cancelled';
  if (err instanceof Error) return err.name || err.constructor.name || 'Error';
  return 'Error';
}

/**
 * Worker activity interceptor: every attempt counts in lakeward_activity_attempts_total (a retry, attempt > 1,
 * also in lakeward_activity_retries_total) and every failed attempt in lakeward_activity_failures_total with its
 * failure type. An activity that completes asynchronously has not failed.
 */
export function activityMetricsInterceptor(ctx: Context): ActivityInterceptors {
  return {
    inbound: {
      async execute(input, next) {
        const { activityType, attempt } = ctx.info;
        recordActivityAttempt(activityType, attempt);
        try {
          return await next(input);
        } catch (err) {
          if (!(err instanceof CompleteAsyncError)) recordActivityFailure(activityType, failureTypeLabel(err));
          throw err;
        }
      },
    },
  };
}

/**
 * Worker options with the activity metrics interceptor added OUTSIDE every other activity interceptor (tracing,
 * log context), so it sees each attempt and the failure the worker reports for it.
 */
export function withActivityMetrics(options: WorkerOptions): WorkerOptions {
  const interceptors = options.interceptors ?? {};
  return {
    ...options,
    interceptors: { ...interceptors, activity: [activityMetricsInterceptor, ...(interceptors.activity ?? [])] },
  };
}
