import type { Workspace } from '../../platform/port';

/**
 * A token bucket: `take()` resolves when a request may go out. `max_rps` is one bucket per job, shared by
 * every activity of that job in this worker process (see `jobBucket`). Capacity 1 keeps requests evenly
 * spaced rather than bursting.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly ratePerSecond: number,
    private readonly capacity = 1,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.tokens = capacity;
    this.last = now();
  }

  /** Waits for one token. Callers are served in arrival order. */
  take(): Promise<void> {
    if (!(this.ratePerSecond > 0)) return Promise.resolve();
    const next = this.queue.then(() => this.waitForToken());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async waitForToken(): Promise<void> {
    for (;;) {
      const t = this.now();
      this.tokens = Math.min(this.capacity, this.tokens + ((t - this.last) / 1000) * this.ratePerSecond);
      this.last = t;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      const waitMs = Math.ceil(((1 - this.tokens) / this.ratePerSecond) * 1000);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

const buckets = new Map<string, { bucket: TokenBucket; lastUsed: number }>();

/** The job's bucket in this process; idle buckets of finished jobs are dropped after ten minutes. */
export function jobBucket(jobId: string, ratePerSecond: number): TokenBucket {
  const now = Date.now();
  for (const [id, entry] of buckets) if (now - entry.lastUsed > 600_000) buckets.delete(id);
  let entry = buckets.get(jobId);
  if (!entry || entry.bucket.ratePerSecond !== ratePerSecond) {
    entry = { bucket: new TokenBucket(ratePerSecond), lastUsed: now };
    buckets.set(jobId, entry);
  }
  entry.lastUsed = now;
  return entry.bucket;
}

const UNTHROTTLED = new Set<PropertyKey>(['kind', 'id', 'close', 'then']);

/** Resolves with `wait`, or rejects with the abort reason as soon as `signal` aborts (a cancelled activity). */
function unlessAborted(wait: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return wait;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    wait.then(
      () => (signal.removeEventListener('abort', onAbort), resolve()),
      (err: unknown) => (signal.removeEventListener('abort', onAbort), reject(err)),
    );
  });
}

/**
 * The workspace with every platform call waiting for a token first. `signal` (the activity's cancellation)
 * ends a wait at once: a cancelled job does not sit out its throttle.
 */
export function rateLimited(ws: Workspace, bucket: TokenBucket, signal?: AbortSignal): Workspace {
  if (!(bucket.ratePerSecond > 0)) return ws;
  return new Proxy(ws, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || UNTHROTTLED.has(prop)) return value;
      return async (...args: unknown[]) => {
        await unlessAborted(bucket.take(), signal);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
