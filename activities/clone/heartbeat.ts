import { Context } from '@temporalio/activity';

/**
 * Keeps an activity heartbeating while `fn` runs and rejects as soon as the activity is cancelled (job
 * cancelled, worker shutting down, heartbeat timeout). A platform call already in flight cannot be
 * interrupted; it finishes in the background and its result is dropped.
 */
export async function withHeartbeat<T>(fn: () => Promise<T>, everyMs = 1000): Promise<T> {
  const ctx = Context.current();
  ctx.heartbeat();
  const timer = setInterval(() => ctx.heartbeat(), everyMs);
  try {
    const work = fn();
    work.catch(() => undefined);
    return await Promise.race([work, ctx.cancelled as Promise<never>]);
  } finally {
    clearInterval(timer);
  }
}

/** Throws the cancellation if it has arrived; call between steps of a long activity. */
export function checkCancelled(): void {
  const ctx = Context.current();
  ctx.heartbeat();
  if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
}
