import type { PoolClock } from '../../workflows/clone/throttle-pool';

/** A discrete-event clock: time moves only when every task is blocked, straight to the next timer. */
export class SimClock implements PoolClock {
  private timers: { at: number; resolve: () => void }[] = [];
  private waiters: { predicate: () => boolean; resolve: () => void }[] = [];
  constructor(public t: number) {}

  now = (): number => this.t;

  sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      this.timers.push({ at: this.t + Math.max(0, ms), resolve });
    });

  waitUntil = (predicate: () => boolean): Promise<void> =>
    predicate() ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ predicate, resolve }));

  /** Drives `work` to completion, advancing simulated time. */
  async run<R>(work: Promise<R>): Promise<R> {
    let done = false;
    const result = work.finally(() => {
      done = true;
    });
    for (let guard = 0; !done && guard < 100_000; guard++) {
      await flush();
      this.wake();
      await flush();
      if (done) break;
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers.shift();
      if (!next) continue;
      this.t = Math.max(this.t, next.at);
      next.resolve();
    }
    return result;
  }

  private wake(): void {
    const ready = this.waiters.filter((w) => w.predicate());
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
