/**
 * Requests-per-second limiter for platform calls. The limit is read at the moment of each call (a throttle
 * window can change it mid-job); 0 means unlimited. Calls are spaced at least 1000/rps ms apart.
 */
export interface LimiterClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: LimiterClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export class RateLimiter {
  private nextSlot = 0;

  constructor(
    private readonly rps: () => number,
    private readonly clock: LimiterClock = realClock,
  ) {}

  async acquire(): Promise<void> {
    const rps = this.rps();
    if (!(rps > 0)) return;
    const now = this.clock.now();
    // Reserve the slot before waiting so concurrent callers queue behind each other.
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + 1000 / rps;
    if (slot > now) await this.clock.sleep(slot - now);
  }
}
