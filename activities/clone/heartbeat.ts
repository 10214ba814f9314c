import { Context } from '@temporalio/activity';
import type { Workspace } from '../../platform/port';

/**
 * Keeps an activity heartbeating while `fn` runs. Cancellation (job cancelled, worker shutting down,
 * heartbeat timeout) arrives with a heartbeat response and is honoured at the next platform call (see
 * `stopOnCancel`) or `checkCancelled()`: a call already in flight cannot be interrupted, so it finishes,
 * and nothing after it starts. The activity reports cancellation only once its work has really stopped.
 */
export async function withHeartbeat<T>(fn: () => Promise<T>, everyMs = 1000): Promise<T> {
  const ctx = Context.current();
  // A local activity has no server-side heartbeat (the worker only logs a warning): skip the timer.
  if (ctx.info.isLocal) return fn();
  ctx.heartbeat();
  const timer = setInterval(() => ctx.heartbeat(), everyMs);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}

/** A heartbeat from checkCancelled at most this often per activity (each costs an encode and a bridge call). */
const CHECK_HEARTBEAT_MS = 200;
const lastBeat = new WeakMap<Context, number>();

/**
 * Throws the cancellation if it has arrived; call between steps of a long activity. It also heartbeats (at most
 * every CHECK_HEARTBEAT_MS: a batch of small tables calls it thousands of times a second), so an activity
 * without withHeartbeat's timer still learns of a cancel.
 */
export function checkCancelled(): void {
  const ctx = Context.current();
  if (!ctx.info.isLocal) {
    const now = Date.now();
    if (now - (lastBeat.get(ctx) ?? 0) >= CHECK_HEARTBEAT_MS) {
      lastBeat.set(ctx, now);
      ctx.heartbeat();
    }
  }
  if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
}

/** The workspace with a cancellation check before every platform call of the current activity. */
export function stopOnCancel(ws: Workspace): Workspace {
  let signal: AbortSignal;
  try {
    signal = Context.current().cancellationSignal;
  } catch {
    return ws;
  }
  return new Proxy(ws, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'close') return value;
      return (...args: unknown[]) => {
        if (signal.aborted) return Promise.reject(signal.reason);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
