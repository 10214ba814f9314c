import { delayBeforeNextStart, type LimitsInForce } from '../../activities/clone/logic/throttle-limits';

/**
 * The clock a pool runs on. In a workflow: `Date.now()` (deterministic there), the SDK's `sleep` and
 * `condition`; in tests: a simulated clock.
 */
export interface PoolClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  waitUntil(predicate: () => boolean): Promise<void>;
}

/**
 * Runs `run` over items, starting each only when the limits in force AT THAT MOMENT allow it: fewer than
 * parallel_tables running and fewer than tables_per_minute started in the last 60 s. Results are settled,
 * in item order, so one failing table does not stop the others.
 */
export async function runThrottled<T, R>(
  items: readonly T[],
  limits: (nowMs: number) => Pick<LimitsInForce, 'parallel_tables' | 'tables_per_minute'>,
  run: (item: T, index: number) => Promise<R>,
  clock: PoolClock,
): Promise<PromiseSettledResult<R>[]> {
  const starts: number[] = [];
  const running: Promise<PromiseSettledResult<R>>[] = [];
  let active = 0;
  try {
    for (const [index, item] of items.entries()) {
      await startSlot();
      launch(item, index);
    }
  } catch (err) {
    // Waiting was interrupted (cancellation): let started work settle before the caller moves on.
    await Promise.allSettled(running);
    throw err;
  }
  return Promise.all(running);

  async function startSlot(): Promise<void> {
    for (;;) {
      await clock.waitUntil(() => active < Math.max(1, limits(clock.now()).parallel_tables));
      const wait = delayBeforeNextStart(starts, limits(clock.now()).tables_per_minute, clock.now());
      if (wait <= 0) return;
      await clock.sleep(wait);
    }
  }

  function launch(item: T, index: number): void {
    starts.push(clock.now());
    active++;
    running.push(
      run(item, index)
        .then(
          (value): PromiseSettledResult<R> => ({ status: 'fulfilled', value }),
          (reason: unknown): PromiseSettledResult<R> => ({ status: 'rejected', reason }),
        )
        .finally(() => {
          active--;
        }),
    );
  }
}
