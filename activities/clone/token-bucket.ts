import type { Workspace } from '../../platform/port';
import type { Db } from '../../store/db';
import { purgeIdleRateSlots, reserveRateSlot } from '../../store/clone/rate-slots';

/** What `rateLimited` draws from: `take()` resolves when one request may go out. */
export interface RateLimiter {
  readonly ratePerSecond: number;
  take(): Promise<void>;
}

/**
 * Where a job's `max_rps` bucket lives. `store` (the default): one row per job in the store
 * (store/clone/rate-slots), so every worker process on the same Postgres draws from the same bucket and the
 * job's rate holds however many workers run it. `process`: a bucket in this process's memory, which is the
 * same thing when only one process can open the store (PGlite), without a store round trip per request.
 */
export type RateLimitScope = 'store' | 'process';

/**
 * An in-process token bucket (the `process` scope). Capacity 1 keeps requests evenly spaced rather than
 * bursting.
 */
export class TokenBucket implements RateLimiter {
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

/** The store-backed bucket of one job (the `store` scope): each request reserves the job's next slot. */
export class StoreRateLimiter implements RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly jobId: string,
    readonly ratePerSecond: number,
  ) {}

  async take(): Promise<void> {
    if (!(this.ratePerSecond > 0)) return;
    const waitMs = await reserveRateSlot(this.db, this.jobId, this.ratePerSecond);
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

const buckets = new Map<string, { bucket: TokenBucket; lastUsed: number }>();
let lastPurge = 0;

/**
 * The job's `max_rps` limiter. In the `process` scope, idle buckets of finished jobs are dropped after ten
 * minutes; in the `store` scope, this process purges slots idle for an hour at most every ten minutes.
 */
export function jobLimiter(db: Db, jobId: string, ratePerSecond: number, scope: RateLimitScope = 'store'): RateLimiter {
  const now = Date.now();
  if (scope === 'store') {
    if (ratePerSecond > 0 && now - lastPurge > 600_000) {
      lastPurge = now;
      void purgeIdleRateSlots(db).catch(() => undefined);
    }
    return new StoreRateLimiter(db, jobId, ratePerSecond);
  }
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
export function rateLimited(ws: Workspace, bucket: RateLimiter, signal?: AbortSignal): Workspace {
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
